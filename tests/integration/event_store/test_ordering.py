"""The global order subscribers can trust: commit order equals position order for readers,
held by PostgreSQL's advisory lock. (A polling reader among many writers is part of the store
contract, tests/event_store_contract.py.)"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import asyncpg

from event_store import NewEvent, PostgresEventStore


async def test_a_later_append_waits_for_an_earlier_uncommitted_one(
    store: PostgresEventStore, pg_pool: asyncpg.Pool, make_event: Callable[..., NewEvent]
) -> None:
    async with pg_pool.acquire() as connection:
        transaction = connection.transaction()
        await transaction.start()
        early = await store.append("game-early", [make_event()], expected_version=0, connection=connection)
        assert early.positions == (1,)

        late = asyncio.create_task(store.append("game-late", [make_event()], expected_version=0))
        await asyncio.sleep(0.3)
        # The late writer cannot take position 2 and commit before position 1 commits, so a
        # reader can never see 2 and then miss 1.
        assert not late.done()
        assert await store.read_all() == []
        await transaction.commit()

    assert (await late).positions == (2,)
    assert [e.position for e in await store.read_all()] == [1, 2]
