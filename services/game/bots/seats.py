"""Bots at the seats of a game whatever its type: one bot per member, of the game's own kind.

A league's bot round (``services/league/bot_league.py``) plays a dice or a card table through the
game service; the league must not know an engine (tests/unit/test_import_boundaries.py), so the
choice of bot by the game in hand lives here, beside the bots.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from services.game.bots.cards import HeuristicCardBot
from services.game.bots.heuristic import HeuristicBot
from services.game.rules.cards.game import Game as CardGame
from services.game.rules.dice.game import Game as DiceGame

DEFAULT_CARE = 0.8
"""How carefully a dice bot plays when its member has no care of its own."""


class SeatBots:
    """One heuristic bot per member, made on its first question: a card bot keeps what its seat
    has seen (public acts) between questions, so it must stay the same bot all game."""

    def __init__(self, care: Mapping[str, float] | None = None) -> None:
        self._care = dict(care or {})
        self._bots: dict[str, HeuristicBot | HeuristicCardBot] = {}

    def move(self, game: Any, seat_members: Mapping[str, str], rng: random.Random) -> tuple[str, Any]:
        """(member, command) for the seat ``game`` awaits; a bot reads only that seat's view.
        Online the server answers randomness itself, so a seat is always awaited."""
        if isinstance(game, CardGame):
            card_question = game.awaiting
            assert card_question is not None, "a card game awaits nobody"
            member = seat_members[card_question.player]
            card_bot = self._bots.setdefault(member, HeuristicCardBot())
            assert isinstance(card_bot, HeuristicCardBot)
            return member, card_bot.choose(game, card_question, rng)
        if not isinstance(game, DiceGame):
            raise TypeError(f"bots play dice and cards, not {game!r}")
        question = game.awaiting
        assert question is not None, "a dice game awaits nobody"
        member = seat_members[question.player]
        dice_bot = self._bots.setdefault(member, HeuristicBot(self._care.get(member, DEFAULT_CARE)))
        assert isinstance(dice_bot, HeuristicBot)
        return member, dice_bot.choose(game, question, rng)
