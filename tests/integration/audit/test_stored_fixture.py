"""A game stored before rulesets and versioned fairness derivations existed still audits clean
on PostgreSQL: its payloads, appended verbatim, give the recorded hash chain, and the seed
re-derives its deal and every roll."""

from __future__ import annotations

from event_store import PostgresEventStore
from services.game.audit import audit_game
from tests.fixtures.stored_games import load_fixture, store_fixture


async def test_the_stored_v1_online_game_audits_clean(game_store: PostgresEventStore) -> None:
    fixture = load_fixture()
    await store_fixture(game_store, fixture)
    stored = await game_store.read_stream(fixture["stream"])
    assert [r.hash.hex() for r in stored] == [e["hash"] for e in fixture["events"]]
    report = await audit_game(game_store, fixture["game_id"])
    assert report.clean, report.checks
    assert report.rolls_checked == fixture["rolls_checked"] == 29
    assert report.events_checked == len(fixture["events"])
