"""Low-latency wake-ups for subscriptions: a hint that new events may be there, nothing more.

A subscription always re-reads the store after waking, and also wakes on its own every
`poll_interval`, so a lost, late or duplicated notification only delays it, never makes it
skip or repeat an event. Two sources:

* `PostgresNotifications` LISTENs on `event_store_appended`, which `event_store_append`
  NOTIFYs inside the appending transaction - PostgreSQL delivers it only after the commit.
* `RedisNotifications` subscribes to a Redis channel that `RedisPositionPublisher` publishes
  the new head position to after each commit (for processes that should not hold a
  PostgreSQL connection just to listen, e.g. many web workers).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from typing import Protocol

import asyncpg
import redis.asyncio as aioredis

log = logging.getLogger(__name__)

POSTGRES_CHANNEL = "event_store_appended"
_RECONNECT_DELAY_SECONDS = 1.0


class Doorbell:
    """One subscriber's wake-up flag. Rung by a source, awaited by the subscriber."""

    def __init__(self) -> None:
        self._rung = asyncio.Event()
        self.latest_position = 0

    def ring(self, position: int = 0) -> None:
        self.latest_position = max(self.latest_position, position)
        self._rung.set()

    async def wait(self, timeout: float, stop: asyncio.Event | None = None) -> bool:
        """Wait until rung, `stop` is set or `timeout` passes; True if rung. Clears the flag,
        so a ring that comes while the subscriber works makes the next wait return at once."""
        waiters = [asyncio.ensure_future(self._rung.wait())]
        if stop is not None:
            waiters.append(asyncio.ensure_future(stop.wait()))
        try:
            await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in waiters:
                waiter.cancel()
        rung = self._rung.is_set()
        self._rung.clear()
        return rung


class WakeupSource(Protocol):
    def doorbell(self) -> Doorbell: ...


class _Fanout:
    """Rings every live doorbell handed out."""

    def __init__(self) -> None:
        self._doorbells: weakref.WeakSet[Doorbell] = weakref.WeakSet()

    def doorbell(self) -> Doorbell:
        bell = Doorbell()
        self._doorbells.add(bell)
        return bell

    def ring_all(self, position: int) -> None:
        for bell in list(self._doorbells):
            bell.ring(position)


class PollingOnly(_Fanout):
    """No notifications: subscribers just poll."""


class PostgresNotifications(_Fanout):
    """LISTEN on one dedicated connection; reconnects in the background if it drops."""

    def __init__(self, dsn: str, channel: str = POSTGRES_CHANNEL) -> None:
        super().__init__()
        self._dsn = dsn
        self._channel = channel
        self._connection: asyncpg.Connection | None = None
        self._supervisor: asyncio.Task[None] | None = None
        self._connected = asyncio.Event()

    async def start(self) -> None:
        self._supervisor = asyncio.create_task(self._keep_listening())
        await asyncio.wait_for(self._connected.wait(), timeout=10)

    async def close(self) -> None:
        if self._supervisor is not None:
            self._supervisor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._supervisor
        if self._connection is not None and not self._connection.is_closed():
            await self._connection.close()

    async def __aenter__(self) -> PostgresNotifications:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def _on_notification(self, _c: object, _pid: int, _channel: str, payload: str) -> None:
        self.ring_all(int(payload) if payload.isdigit() else 0)

    async def _keep_listening(self) -> None:
        while True:
            try:
                self._connection = await asyncpg.connect(self._dsn)
                await self._connection.add_listener(self._channel, self._on_notification)
                self._connected.set()
                # Whatever happened while we were away: let everyone look once.
                self.ring_all(0)
                while not self._connection.is_closed():
                    await asyncio.sleep(_RECONNECT_DELAY_SECONDS)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                log.warning("event store LISTEN connection lost: %s; polling meanwhile", error)
            await asyncio.sleep(_RECONNECT_DELAY_SECONDS)


class RedisNotifications(_Fanout):
    """SUBSCRIBE to a Redis channel carrying head positions; resubscribes if Redis drops."""

    def __init__(self, redis_url: str, channel: str) -> None:
        super().__init__()
        self._url = redis_url
        self._channel = channel
        self._reader: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()

    async def start(self) -> None:
        self._reader = asyncio.create_task(self._keep_reading())
        await asyncio.wait_for(self._subscribed.wait(), timeout=10)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader

    async def __aenter__(self) -> RedisNotifications:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def _keep_reading(self) -> None:
        while True:
            client = aioredis.from_url(self._url)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(self._channel)
                    self._subscribed.set()
                    self.ring_all(0)
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            data = message["data"]
                            self.ring_all(int(data) if data.isdigit() else 0)
            except (OSError, aioredis.RedisError) as error:
                log.warning("redis wake-up channel lost: %s; polling meanwhile", error)
            finally:
                await client.aclose()
            await asyncio.sleep(_RECONNECT_DELAY_SECONDS)


class RedisPositionPublisher:
    """Publishes the newest head position to a Redis channel after appends commit.

    `published()` never blocks the appender: it records the position and a background task
    publishes the latest one, so a burst of appends costs one PUBLISH, and a Redis outage
    costs only latency (subscribers still poll).
    """

    def __init__(self, redis_url: str, channel: str) -> None:
        self._client = aioredis.from_url(redis_url)
        self._channel = channel
        self._latest = 0
        self._sent = 0
        self._pending = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._publish_forever())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._client.aclose()

    def published(self, position: int) -> None:
        if position > self._latest:
            self._latest = position
            self._pending.set()

    async def _publish_forever(self) -> None:
        while True:
            await self._pending.wait()
            self._pending.clear()
            position = self._latest
            if position <= self._sent:
                continue
            try:
                await self._client.publish(self._channel, str(position))
                self._sent = position
            except (OSError, aioredis.RedisError) as error:
                log.warning("could not publish event store position to redis: %s", error)
                await asyncio.sleep(_RECONNECT_DELAY_SECONDS)
                self._pending.set()


def redis_channel_for(database: str) -> str:
    """The Redis channel for the store in `database` (one Redis may serve several stores)."""
    return f"bang:event_store:{database}:appended"
