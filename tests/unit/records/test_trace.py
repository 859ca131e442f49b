"""Every event type has its own readable line."""

from __future__ import annotations

from services.game.records import trace_line
from services.game.rules.dice import EVENT_TYPES
from tests.unit.records.test_roundtrip import play_random


def test_every_event_type_is_described() -> None:
    seen: dict[str, str] = {}
    for seed in range(60):
        game, _ = play_random(3 + seed % 6, 5000 + seed)
        for event in game.events:
            line = trace_line(event)
            assert line and line != type(event).__name__, event
            seen.setdefault(type(event).__name__, line)
    # every event the engine can produce in random play appears in these games
    assert set(seen) == set(EVENT_TYPES), set(EVENT_TYPES) - set(seen)
