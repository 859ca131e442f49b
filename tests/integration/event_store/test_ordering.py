"""The global order subscribers can trust: commit order equals position order for readers."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

import asyncpg

from event_store import ANY, NewEvent, PostgresEventStore


async def test_a_polling_reader_sees_every_event_once_in_order_while_many_write(
    store: PostgresEventStore, make_event: Callable[..., NewEvent]
) -> None:
    writers, appends_per_writer = 8, 25
    rng = random.Random(7)
    sizes = [[rng.randint(1, 4) for _ in range(appends_per_writer)] for _ in range(writers)]
    done = asyncio.Event()
    seen: list[int] = []

    async def write(writer: int) -> None:
        for index, size in enumerate(sizes[writer]):
            # Half the writers share streams, so stream locks and retries interleave too.
            stream = f"game-{writer}" if writer % 2 else f"game-shared{index % 3}"
            await store.append(stream, [make_event() for _ in range(size)], expected_version=ANY)

    async def read() -> None:
        last = 0
        while True:
            finished = done.is_set()  # read once more after the writers finished
            batch = await store.read_all(after_position=last, limit=7)
            seen.extend(e.position for e in batch)
            if batch:
                last = batch[-1].position
            elif finished:
                return
            else:
                await asyncio.sleep(0)

    reader = asyncio.create_task(read())
    await asyncio.gather(*(write(w) for w in range(writers)))
    done.set()
    await reader

    stored = [e.position async for e in store.iter_all(batch_size=100)]
    total = sum(map(sum, sizes))
    assert stored == list(range(1, total + 1))  # gap-free
    assert seen == stored  # every committed event, once, in order, nothing skipped
    assert (await store.verify_all()).ok


async def test_a_later_append_waits_for_an_earlier_uncommitted_one(
    store: PostgresEventStore, pg_pool: asyncpg.Pool, make_event: Callable[..., NewEvent]
) -> None:
    async with pg_pool.acquire() as connection:
        transaction = connection.transaction()
        await transaction.start()
        early = await store.append(
            "game-early", [make_event()], expected_version=0, connection=connection
        )
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
