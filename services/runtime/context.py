"""What a running process has to hand: the database, the event store, Redis, wake-ups."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass

import asyncpg

from event_store import PollingOnly, PostgresEventStore, PostgresNotifications, create_pool
from event_store.wakeups import WakeupSource
from services.game.codec import GAME_MAPPER
from services.runtime.metrics import MeteredEventStore


@dataclass(frozen=True, slots=True)
class RuntimeContext:
    dsn: str
    redis_url: str
    pool: asyncpg.Pool
    store: PostgresEventStore
    wakeups: WakeupSource
    """Rings when the store appends (PostgreSQL LISTEN), so consumers react in milliseconds."""


@asynccontextmanager
async def open_context(
    dsn: str, redis_url: str, *, max_connections: int = 10, listen: bool = True
) -> AsyncIterator[RuntimeContext]:
    """A pool on `dsn`, a metered store on it and (with `listen`) one LISTEN connection for
    wake-ups; all closed on exit. The store decodes game events (`GAME_MAPPER`); projections
    read `RecordedEvent`s and decode their own."""
    async with AsyncExitStack() as stack:
        pool = await create_pool(dsn, min_size=1, max_size=max_connections)
        stack.push_async_callback(pool.close)
        wakeups: WakeupSource = PollingOnly()
        if listen:
            notifications = PostgresNotifications(dsn)
            await notifications.start()
            stack.push_async_callback(notifications.close)
            wakeups = notifications
        yield RuntimeContext(dsn, redis_url, pool, MeteredEventStore(pool, mapper=GAME_MAPPER), wakeups)
