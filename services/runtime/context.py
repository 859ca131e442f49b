"""What a running process has to hand: the database, the event store, Redis, wake-ups."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass

import asyncpg

from event_store import (
    Mapper,
    PollingOnly,
    PoolTimeouts,
    PostgresEventStore,
    PostgresNotifications,
    create_pool,
)
from event_store.wakeups import WakeupSource
from infra.settings import load_settings
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
    dsn: str,
    redis_url: str,
    *,
    mapper: Mapper,
    max_connections: int = 10,
    listen: bool = True,
    timeouts: PoolTimeouts | None = None,
) -> AsyncIterator[RuntimeContext]:
    """A pool on `dsn`, a metered store on it and (with `listen`) one LISTEN connection for
    wake-ups; all closed on exit. The store encodes and decodes with `mapper`, which the caller
    passes (the game's `GAME_MAPPER` where game commands are played): the runtime sits below
    the services and imports none of them. Projections read `RecordedEvent`s and decode their
    own.

    By default the pool limits only how long a connection may take to open: these processes
    (consumers, workers, migrations, rebuilds, backups, imports) serve no waiting caller and
    may legitimately run long statements, so a stalled server is waited out, not given up on.
    """
    if timeouts is None:
        timeouts = PoolTimeouts(connect=load_settings().postgres.connect_timeout_seconds)
    async with AsyncExitStack() as stack:
        pool = await create_pool(dsn, min_size=1, max_size=max_connections, timeouts=timeouts)
        stack.push_async_callback(pool.close)
        wakeups: WakeupSource = PollingOnly()
        if listen:
            notifications = PostgresNotifications(dsn)
            await notifications.start()
            stack.push_async_callback(notifications.close)
            wakeups = notifications
        yield RuntimeContext(dsn, redis_url, pool, MeteredEventStore(pool, mapper=mapper), wakeups)
