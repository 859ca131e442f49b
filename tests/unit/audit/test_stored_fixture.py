"""The game stored before rulesets existed (tests/fixtures/online_game_v1.json), on the
in-memory store: the same hash chain, a clean audit, and its creation decodes as the base
game."""

from __future__ import annotations

from event_store import MemoryEventStore
from services.game.audit import audit_game
from services.game.codec import GAME_MAPPER
from tests.fixtures.stored_games import load_fixture, store_fixture


async def test_the_stored_v1_online_game_audits_clean_in_memory() -> None:
    fixture = load_fixture()
    store = MemoryEventStore(mapper=GAME_MAPPER)
    await store_fixture(store, fixture)
    stored = await store.read_stream(fixture["stream"])
    assert [r.hash.hex() for r in stored] == [e["hash"] for e in fixture["events"]]
    report = await audit_game(store, fixture["game_id"])  # type: ignore[arg-type]
    assert report.clean, report.checks
    assert report.rolls_checked == 29
