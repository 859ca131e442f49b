"""Tamper evidence: edits and deletions made with plain SQL are found and named. (That an
untouched store verifies, and the hash's encoding, are part of the store contract,
tests/event_store_contract.py.)"""

from __future__ import annotations

import asyncpg
import pytest

from event_store import ChainBreak, PostgresEventStore, TamperDetected, event_hash
from tests.event_store_contract import fill_game_42


@pytest.fixture
async def game_42(store: PostgresEventStore) -> None:
    await fill_game_42(store)


async def _tamper(pool: asyncpg.Pool, sql: str) -> None:
    # Someone with owner rights: the append-only trigger is switched off first.
    async with pool.acquire() as connection, connection.transaction():
        await connection.execute("ALTER TABLE events DISABLE TRIGGER USER")
        await connection.execute(sql)
        await connection.execute("ALTER TABLE events ENABLE TRIGGER USER")


async def test_plain_updates_and_deletes_are_refused(store: PostgresEventStore, game_42: None) -> None:
    with pytest.raises(asyncpg.PostgresError, match="append-only"):
        await store.pool.execute("UPDATE events SET data = '{}' WHERE version = 2")
    with pytest.raises(asyncpg.PostgresError, match="append-only"):
        await store.pool.execute("DELETE FROM events")
    with pytest.raises(asyncpg.PostgresError, match="append-only"):
        await store.pool.execute("TRUNCATE events")


async def test_an_edited_event_is_named(store: PostgresEventStore, game_42: None) -> None:
    await _tamper(
        store.pool,
        """UPDATE events SET data = '{"roll":6}' WHERE stream_name = 'game-42' AND version = 7""",
    )
    report = await store.verify_stream("game-42")
    assert str(report.first_problem) == (
        "game-42 version 7: stored hash does not match its content (edited?)"
    )
    assert (await store.verify_stream("game-43")).ok
    with pytest.raises(TamperDetected, match="game-42 version 7"):
        (await store.verify_all()).raise_if_broken()


async def test_edited_metadata_or_type_is_named(store: PostgresEventStore, game_42: None) -> None:
    await _tamper(
        store.pool,
        """UPDATE events SET metadata = '{"actor":"mallory"}'
            WHERE stream_name = 'game-42' AND version = 3""",
    )
    assert (await store.verify_stream("game-42")).first_problem.version == 3  # type: ignore[union-attr]


async def test_a_deleted_event_is_named(store: PostgresEventStore, game_42: None) -> None:
    await _tamper(store.pool, "DELETE FROM events WHERE stream_name = 'game-42' AND version = 5")
    report = await store.verify_all()
    messages = [str(p) for p in report.problems]
    assert messages == ["game-42 version 5 missing (deleted?)", "global position 5 missing (deleted?)"]


async def test_a_deleted_tail_is_named(store: PostgresEventStore, game_42: None) -> None:
    await _tamper(store.pool, "DELETE FROM events WHERE stream_name = 'game-42' AND version >= 6")
    report = await store.verify_stream("game-42")
    assert str(report.first_problem) == "game-42 versions 6-7 missing (deleted?)"


async def test_a_rewritten_event_with_a_recomputed_hash_breaks_the_next_link(
    store: PostgresEventStore, game_42: None
) -> None:
    # A smarter forger rewrites version 4 and its own hash; version 5 still names the old one.
    original = (await store.read_stream("game-42"))[3]
    forged = event_hash(
        prev_hash=original.prev_hash,
        stream="game-42",
        version=4,
        event_id=original.event_id,
        event_type="DiceRolled",
        schema_version=1,
        data=b'{"roll":6}',
        metadata=b"{}",
    )
    await _tamper(
        store.pool,
        f"""UPDATE events SET data = '{{"roll":6}}', hash = '\\x{forged.hex()}'
             WHERE stream_name = 'game-42' AND version = 4""",
    )
    report = await store.verify_stream("game-42")
    assert str(report.first_problem) == (
        "game-42 version 5: prev_hash does not match the hash of version 4 (history before it rewritten?)"
    )


async def test_each_problem_carries_its_kind(store: PostgresEventStore, game_42: None) -> None:
    await _tamper(store.pool, "DELETE FROM events WHERE stream_name = 'game-42' AND version >= 6")
    await _tamper(
        store.pool,
        """UPDATE events SET data = '{"roll":6}' WHERE stream_name = 'game-43' AND version = 1""",
    )
    report = await store.verify_all()
    found = [(p.stream, p.kind, p.version, p.last_missing) for p in report.problems]
    assert found == [
        ("game-42", ChainBreak.MISSING, 6, 7),
        ("game-43", ChainBreak.EDITED, 1, None),
        (None, ChainBreak.MISSING, None, None),  # global positions 6 and 7
    ]
