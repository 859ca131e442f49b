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
scorekeeper. Each engine declares its decisions' defaults (the dice engine: ``DecisionSpec.timeout``);
this is where the service asks for them, through the engine interface.

A seat a bot took over (``SeatReplaced`` with no member) is answered at once by the server's
heuristic bot of the game's type (``bot_command``), not by these defaults.
"""

from __future__ import annotations

import random

from services.game.engines import GameEngine, PlayedGame
from services.game.engines.interface import Command


def default_command(engine: GameEngine, game: PlayedGame) -> Command | None:
    """The command played for the awaited player when their time is up (None: no default)."""
    return engine.timeout_default(game)


def bot_command(game: PlayedGame, seat: str, seed: str) -> Command:
    """What the server's heuristic bot plays for ``seat``, whose question ``game`` awaits. A new
    bot each time, seeded by ``seed`` (the game and version): the same question always gets the
    same answer, whichever process asks. The bot reads only that seat's view."""
    from services.game.bots.seats import SeatBots  # the bots import the engines: only when needed

    _member, command = SeatBots().move(game, {seat: seat}, random.Random(f"bot:{seed}"))
    return command
