"""Replay compatibility of Greg Digger: a game stored when UA3's characters were ``ua3-1``
(tests/fixtures/online_game_ua3_1_greg.json: each beer Greg resolved healed its target twice as
one gain) loads, replays and audits exactly as stored, whatever the current version of the table
(docs/rulings.md, UA3 table, "Greg Digger")."""

from __future__ import annotations

import msgspec

from event_store import MemoryEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.service import GameService
from services.game.application.session import GameStatus
from services.game.audit import audit_game
from services.game.fairness.memory_vault import MemorySeedVault
from services.game.records import (
    inputs_from_events,
    read_record,
    record_from_events,
    replay_record,
    write_record,
)
from services.game.rules.dice.events import LifeGained
from services.game.rules.dice.vocabulary import GainCause, PlayerId
from tests.fixtures.stored_games import ONLINE_GAME_UA3_1_GREG, load_fixture, store_fixture


async def _stored() -> tuple[MemoryEventStore, dict]:  # type: ignore[type-arg]
    fixture = load_fixture(ONLINE_GAME_UA3_1_GREG)
    store = MemoryEventStore(mapper=GAME_MAPPER)
    await store_fixture(store, fixture)
    return store, fixture


async def test_the_stored_ua3_1_greg_game_keeps_its_chain_and_audits_clean() -> None:
    store, fixture = await _stored()
    stored = await store.read_stream(fixture["stream"])
    assert [r.hash.hex() for r in stored] == [e["hash"] for e in fixture["events"]]
    assert stored[0].data["ruleset"]["data"]["characters-ua3"] == "ua3-1"
    report = await audit_game(store, fixture["game_id"])  # type: ignore[arg-type]
    assert report.clean, report.verdict
    assert report.ruleset == "dice UA3"


async def test_the_stored_ua3_1_greg_game_replays_with_ua3_1s_greg() -> None:
    store, fixture = await _stored()
    service = GameService(store, MemorySeedVault())  # type: ignore[arg-type]
    session = await service.load(fixture["game_id"])
    assert session.status is GameStatus.ENDED and session.game is not None
    events = session.game.events
    greg = fixture["greg"]
    # ua3-1: one beer of Greg's on p5 healed 2 as one gain, and nobody was asked for a second heal
    assert LifeGained(player=PlayerId("p5"), amount=2, cause=GainCause.BEER, source=PlayerId(greg)) in events
    assert not any(type(e).__name__.startswith("Greg") for e in events)
    # its record replays to the very same events, and keeps its version through write and read
    record = record_from_events(events, ruleset=session.created.ruleset)
    assert record.ruleset.data["characters-ua3"] == "ua3-1"
    again = read_record(write_record(replay_record(record)))
    assert again.ruleset == record.ruleset
    replayed = replay_record(again).events
    assert [msgspec.to_builtins(e) for e in replayed] == [msgspec.to_builtins(e) for e in events]
    assert list(map(str, inputs_from_events(events[1:]))) == list(map(str, again.inputs))
