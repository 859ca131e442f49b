"""Faults only PostgreSQL has: a connection dropped mid-append, an unreachable or restarted
server. (Racing writers and bad input are part of the store contract,
tests/event_store_contract.py.)"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import asyncpg
import msgspec
import pytest

from event_store import (
    NO_STREAM,
    Mapper,
    NewEvent,
    PayloadDecodeError,
    PostgresEventStore,
    StoreUnavailable,
    UnknownEventType,
)
from event_store.codec import canonical_data


async def _backend_waiting_on_a_lock(pool: asyncpg.Pool) -> int:
    for _ in range(500):
        pid = await pool.fetchval(
            """SELECT pid FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock'
                  AND query LIKE '%event_store_append%'"""
        )
        if pid is not None:
            return pid
        await asyncio.sleep(0.01)
    raise AssertionError("the append never blocked")


async def test_a_connection_dropped_mid_append_loses_nothing_and_a_retry_is_safe(
    store: PostgresEventStore, pg_pool: asyncpg.Pool, make_event: Callable[..., NewEvent]
) -> None:
    await store.append("game-7", [make_event()], expected_version=NO_STREAM)
    batch = [make_event(roll=n) for n in range(3)]

    async with pg_pool.acquire() as blocker, blocker.transaction():
        # Hold the global position lock so the append stops mid-transaction: after it moved
        # the stream head, before it inserted the events.
        await blocker.execute("SELECT pg_advisory_xact_lock(1650552423)")
        append = asyncio.create_task(store.append("game-7", batch, expected_version=1))
        backend = await _backend_waiting_on_a_lock(pg_pool)
        assert await pg_pool.fetchval("SELECT pg_terminate_backend($1)", backend)
        with pytest.raises(StoreUnavailable, match="retrying the same events is safe"):
            await append

    assert await store.stream_version("game-7") == 1  # the half-done append rolled back
    assert await store.head_position() == 1

    retried = await store.append("game-7", batch, expected_version=1)
    assert (retried.versions, retried.duplicate) == ((2, 3, 4), False)
    # The answer to the retry got lost too, so the caller retries again: no double write.
    again = await store.append("game-7", batch, expected_version=1)
    assert (again.positions, again.duplicate) == (retried.positions, True)
    assert [e.event_id for e in await store.read_stream("game-7", 2)] == [e.event_id for e in batch]
    assert (await store.verify_all()).ok


async def test_an_unreachable_database_is_store_unavailable(tmp_path: object) -> None:
    with pytest.raises(StoreUnavailable, match="cannot reach"):
        await PostgresEventStore.open(f"postgresql://postgres@/nope?host={tmp_path}")


async def test_the_pool_recovers_after_its_connections_are_killed(
    store: PostgresEventStore, pg_pool: asyncpg.Pool, make_event: Callable[..., NewEvent]
) -> None:
    await store.append("game-8", [make_event()], expected_version=NO_STREAM)
    await pg_pool.execute(
        """SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid()"""
    )
    await asyncio.sleep(0.05)
    outcome: object = None
    for _ in range(store.pool.get_size() + 1):  # dead pooled connections fail once each
        try:
            outcome = await store.append("game-8", [make_event()], expected_version=1)
            break
        except StoreUnavailable as error:
            outcome = error
    assert not isinstance(outcome, BaseException)
    assert await store.stream_version("game-8") == 2


def test_bad_payloads_and_unknown_types_get_clear_errors() -> None:
    class DiceRolled(msgspec.Struct):
        faces: list[str]

    class NotRegistered(msgspec.Struct):
        x: int

    mapper = Mapper()
    mapper.register(DiceRolled)
    with pytest.raises(PayloadDecodeError, match="not valid JSON"):
        canonical_data(b"{not json")
    with pytest.raises(PayloadDecodeError, match="must be a JSON object"):
        canonical_data(b"[1, 2]")
    with pytest.raises(UnknownEventType, match=r"'NotRegistered'.*known: DiceRolled"):
        mapper.to_new_event(NotRegistered(1))
