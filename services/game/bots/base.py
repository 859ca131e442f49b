"""The ``Bot`` protocol: given a game and its open question, pick one legal command.

Bots answer every decision except ``roll``: dice come from a ``DiceSource``. They see the
game only through ``bots.view`` (a player's knowledge), never the hidden roles in the state.
"""

from __future__ import annotations

import random
from typing import Protocol

from services.game.rules.dice import Awaiting, Game, GameCommand, GameState
from services.game.rules.dice.events import Event


class Bot(Protocol):
    def choose(self, game: Game | GameState, question: Awaiting, rng: random.Random) -> GameCommand:
        """A legal answer to ``question`` (never a ``roll``), using ``rng`` for any chance."""
        ...


def split_game(game: Game | GameState) -> tuple[GameState, list[Event] | None]:
    """The state and, when the caller gave a whole game, its public record of events."""
    if isinstance(game, Game):
        return game.state, game.events
    return game, None
