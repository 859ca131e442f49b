"""Default decisions for a player who does not decide in time (see docs/game-service.md).

The defaults are the least eventful legal choice, so that an absent player neither gains nor
throws away much:

| decision          | default                                                        |
|-------------------|----------------------------------------------------------------|
| reroll_or_stop    | stop (keep the dice)                                           |
| turn_start_heal   | heal themselves                                                |
| shot_target       | the lowest-numbered die awaiting a target, at the first legal  |
|                   | target clockwise from the shooter                              |
| beer_target       | the lowest-numbered beer awaiting a target, to themselves      |
| double_shot, arrows_instead, discard_arrows, remove_arrows | decline            |

Dice (``roll``) never time out: online games roll on the server, table games wait for the
scorekeeper.
"""

from __future__ import annotations

from services.game.rules.dice import (
    Awaiting,
    ChooseTarget,
    Decision,
    Decline,
    GameCommand,
    GameState,
    StopRolling,
    legal_commands,
)


def default_command(state: GameState, question: Awaiting) -> GameCommand | None:
    """The command played for ``question``'s player when their time is up (None: no default)."""
    player = question.player
    match question.decision:
        case Decision.REROLL_OR_STOP:
            return StopRolling(player=player)
        case Decision.TURN_START_HEAL:
            return ChooseTarget(player=player, target=player)
        case Decision.BEER_TARGET:
            return ChooseTarget(player=player, die=min(question.dice), target=player)
        case Decision.SHOT_TARGET:
            die = min(question.dice)
            shooter = state.by_id[player]
            n = len(state.players)
            clockwise = [state.players[(shooter.seat + k) % n].id for k in range(1, n)]
            legal = legal_commands(state)
            for target in clockwise:
                command = ChooseTarget(player=player, die=die, target=target)
                if command in legal:
                    return command
            return None
        case Decision.ROLL:
            return None
        case _:
            return Decline(player=player)
