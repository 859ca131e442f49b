"""Catch-up subscriptions with a checkpoint committed together with the work.

Delivery is at least once: a batch is read after the subscriber's checkpoint, handled, and
the checkpoint moved - all in ONE PostgreSQL transaction on the connection the handler gets.
A projection that writes its read model through that connection therefore applies every
event exactly once: if the process dies mid-batch, the rows and the checkpoint roll back
together and the batch is handled again after the restart. (Side effects outside that
transaction - a Redis publish, an e-mail - happen at least once; use `after_commit` for
them.) Reading the checkpoint `FOR UPDATE` also makes two runners of the same subscription
take turns instead of applying a batch twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

import asyncpg

from event_store.errors import StoreUnavailable
from event_store.postgres_store import CONNECTION_ERRORS, PostgresEventStore
from event_store.records import RecordedEvent
from event_store.streams import validate_category
from event_store.wakeups import PollingOnly, WakeupSource

log = logging.getLogger(__name__)

EventHandler = Callable[[RecordedEvent, asyncpg.Connection], Awaitable[None]]
AfterCommit = Callable[[Sequence[RecordedEvent]], Awaitable[None]]


async def checkpoint_of(executor: asyncpg.Pool | asyncpg.Connection, name: str) -> int:
    """Where subscriber `name` is: the last position it handled (0 before the first)."""
    position = await executor.fetchval("SELECT position FROM checkpoints WHERE name = $1", name)
    return position or 0


async def lock_checkpoint(connection: asyncpg.Connection, name: str) -> int:
    """Subscriber `name`'s position, its row created at 0 if new and locked `FOR UPDATE` until
    the transaction ends: whoever else works for `name` waits for that, then reads the moved
    position, so no batch is applied twice."""
    await connection.execute(
        "INSERT INTO checkpoints (name, position) VALUES ($1, 0) ON CONFLICT (name) DO NOTHING", name
    )
    return await connection.fetchval("SELECT position FROM checkpoints WHERE name = $1 FOR UPDATE", name)


async def move_checkpoint(connection: asyncpg.Connection, name: str, position: int) -> None:
    """Record that subscriber `name` handled everything up to `position` (in the transaction
    that wrote the work, so both commit together)."""
    await connection.execute(
        "UPDATE checkpoints SET position = $2, updated_at = clock_timestamp() WHERE name = $1",
        name,
        position,
    )


class Subscription:
    """Feeds the store's global stream (or some categories of it) to `handler`.

        async def project(event: RecordedEvent, tx: asyncpg.Connection) -> None:
            await tx.execute("INSERT INTO game_summaries …")

        subscription = Subscription(store, "game-summaries", project, categories=["game"])
        await subscription.run_until_idle()      # catch up, then return
        await subscription.run(stop)             # follow the store until `stop` is set

    A handler error rolls its whole batch back and propagates: the subscription stops at
    that batch, and a restart retries it.
    """

    def __init__(
        self,
        store: PostgresEventStore,
        name: str,
        handler: EventHandler,
        *,
        categories: Sequence[str] | None = None,
        batch_size: int = 256,
        wakeups: WakeupSource | None = None,
        poll_interval: float = 1.0,
        after_commit: AfterCommit | None = None,
    ) -> None:
        if not name:
            raise ValueError("a subscription needs a name (its checkpoint key)")
        self.store = store
        self.name = name
        self.handler = handler
        self.categories = None if categories is None else [validate_category(c) for c in categories]
        self.batch_size = batch_size
        self.wakeups = wakeups or PollingOnly()
        self.poll_interval = poll_interval
        self.after_commit = after_commit

    async def position(self) -> int:
        return await checkpoint_of(self.store.pool, self.name)

    async def handle_next_batch(self) -> int:
        """Handle up to `batch_size` events after the checkpoint in one transaction;
        return how many were handled (0: caught up)."""
        try:
            async with self.store.pool.acquire() as connection, connection.transaction():
                position = await lock_checkpoint(connection, self.name)
                events = await self.store.fetch_all_after(
                    connection, position, self.batch_size, self.categories
                )
                for event in events:
                    await self.handler(event, connection)
                if events:
                    await move_checkpoint(connection, self.name, events[-1].position)
        except CONNECTION_ERRORS as error:
            raise StoreUnavailable(f"subscription {self.name}: {error}") from error
        if events and self.after_commit is not None:
            await self.after_commit(events)
        return len(events)

    async def run_until_idle(self) -> int:
        """Catch up with everything committed so far; return how many events were handled."""
        total = 0
        while handled := await self.handle_next_batch():
            total += handled
        return total

    async def run(self, stop: asyncio.Event) -> None:
        """Follow the store until `stop` is set: catch up, then sleep until a wake-up or
        `poll_interval`, whichever comes first. A lost database connection is waited out;
        handler errors propagate."""
        doorbell = self.wakeups.doorbell()  # before the first read, so no ring is missed
        while not stop.is_set():
            try:
                handled = await self.handle_next_batch()
            except StoreUnavailable as error:
                log.warning("%s; retrying after %.1fs", error, self.poll_interval)
                handled = 0
            if handled < self.batch_size:
                await doorbell.wait(self.poll_interval, stop)
