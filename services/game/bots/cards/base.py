"""The ``CardBot`` protocol: given a card game and its open question, pick one legal command.

Bots answer every seat's decision; ``TABLE``'s (a shuffle, a card taken at random from a hand,
a card named at a table) come from the randomness source, never from a bot. A bot sees the
game only through ``view.SeatView`` (one seat's knowledge).
"""

from __future__ import annotations

import random
from typing import Protocol

from services.game.rules.cards import commands as cmd
from services.game.rules.cards import events as ev
from services.game.rules.cards.awaiting import Awaiting
from services.game.rules.cards.game import Game
from services.game.rules.cards.state import GameState


class CardBot(Protocol):
    def choose(self, game: Game | GameState, question: Awaiting, rng: random.Random) -> cmd.Command:
        """A legal answer to ``question`` (a seat's, never ``TABLE``'s), using ``rng`` for any
        chance."""
        ...


def split_game(game: Game | GameState) -> tuple[GameState, list[ev.Event] | None]:
    """The state and, when the caller gave a whole game, its record of events (a bot reads only
    their public part, through ``view.Knowledge``)."""
    if isinstance(game, Game):
        return game.state, game.events
    return game, None
