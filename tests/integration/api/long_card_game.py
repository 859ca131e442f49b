"""A long card game (8 heuristic bots, 3,262 engine events, 761 inputs and the first shuffle):
the longest of ``bang-league simulate --game cards --players 8``'s first 150 games, for the tests
that need thousands of events."""

from __future__ import annotations

import functools
import json
from typing import Any

from services.game import simulation_cards
from services.game.bots.cards import CARD_BOTS
from services.game.records.cards import write_card_record

PLAYERS = 8
GAME_INDEX = 19
"""Game 19 of seed 0's run: 3,262 events."""


@functools.cache
def _record_text() -> str:
    rng, table = simulation_cards.game_seeds(0, GAME_INDEX, PLAYERS)
    game = simulation_cards.play_game(
        simulation_cards.deal(PLAYERS, table), CARD_BOTS["heuristic"](), table, rng
    )
    assert game.is_over and len(game.events) > 3_000
    return write_card_record(game)


def long_card_record() -> dict[str, Any]:
    """A fresh copy each time (a test may change it)."""
    record: dict[str, Any] = json.loads(_record_text())
    return record
