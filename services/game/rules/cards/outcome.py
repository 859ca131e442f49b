"""The end of the game: who wins, checked once per resolution after its eliminations."""

from __future__ import annotations

from services.game.rules.cards import events as ev
from services.game.rules.cards.state import GameState
from services.game.rules.cards.vocabulary import SIDE_OF_ROLE, Cause, Role, Side


def winner(state: GameState) -> Side | None:
    """The Sheriff's condition first: dead → the last living Renegade alone, else the Outlaws.
    Then no Outlaw and no Renegade living → the Law. Otherwise the game goes on."""
    living = state.living()
    sheriff = next(p for p in state.players if p.role is Role.SHERIFF)
    if not sheriff.alive:
        if len(living) == 1 and living[0].role is Role.RENEGADE:
            return Side.RENEGADE
        return Side.OUTLAWS
    if not any(p.role in (Role.OUTLAW, Role.RENEGADE) for p in living):
        return Side.LAW
    return None


def game_result(state: GameState) -> ev.GameEnded | None:
    side = winner(state)
    if side is None:
        return None
    results = []
    for p in state.players:
        won = SIDE_OF_ROLE[p.role] is side and (side is not Side.RENEGADE or p.alive)
        by: str | None = None
        if not p.alive:
            by = p.eliminated_by if p.eliminated_cause is Cause.CARD else str(p.eliminated_cause)
        results.append(
            ev.PlayerResult(
                player=p.id,
                role=p.role,
                character=p.character,
                side=SIDE_OF_ROLE[p.role],
                won=won,
                alive=p.alive,
                eliminated_by=by,
                eliminated_turn=p.eliminated_turn,
            )
        )
    return ev.GameEnded(winner=side, turn=state.turn, results=tuple(results))
