"""Live fan-out of game updates across API processes, through Redis.

After each successful append the API *announces* ``(game id, new version)``; every API
process listens on one Redis channel and rings the local watchers of that game, which then
read the new events from the event store (the truth) and redact them per watcher. Redis
carries only "game X is at version N", never an event, so a lost or late message costs
latency, not correctness: a watcher also re-reads the store every ``poll_interval``.

Publishing never blocks a command: ``announce`` records the newest version per game and a
background task sends the pending ones in one pipeline, so a burst of commands costs one
round trip to Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

log = logging.getLogger(__name__)

_RECONNECT_DELAY_SECONDS = 1.0


_MAX_CONNECTIONS = 200
"""One API process's Redis connections (rate limits, fan-out announcements, token revocations)."""


def redis_client(url: str, *, timeout: float | None) -> aioredis.Redis:
    """The API's Redis client: each connect, read and write gives up after ``timeout`` seconds,
    and only a dropped connection is retried (once, at once). redis-py's defaults (5 s, retried
    three times with back-off) would hold a caller for half a minute once Redis stops answering.
    The fan-out's listener still waits on its quiet channel for as long as it likes: redis-py
    never applies the read timeout to a subscription's blocking read.

    The pool blocks (up to ``timeout``) for a free connection instead of failing at once:
    redis-py's plain pool raises ``MaxConnectionsError`` at its 100th concurrent caller, which
    under a burst made the rate limiter fail open and the fan-out drop announcements."""
    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=_MAX_CONNECTIONS,
        timeout=timeout,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        retry=Retry(NoBackoff(), retries=1, supported_errors=(aioredis.ConnectionError,)),
    )
    return aioredis.Redis(connection_pool=pool)


def fanout_channel(namespace: str) -> str:
    """One channel per database, so one Redis can serve several deployments (and test runs)."""
    return f"bang:games:{namespace}:appended"


class GameWatch:
    """One watcher's wake-up flag for one game."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.latest_version = 0
        self._look_anyway = False
        self._rung = asyncio.Event()

    def ring(self, version: int) -> None:
        """``version``: the game's version after an append; 0 when unknown (look anyway)."""
        self.latest_version = max(self.latest_version, version)
        if version == 0:
            self._look_anyway = True
        self._rung.set()

    def has_news(self, known_version: int) -> bool:
        """After being rung: whether the rings since the last call may announce events after
        ``known_version``. A process hears its own announcements twice (at once, and back from
        Redis), so the echo of a version already read costs no store read."""
        news = self._look_anyway or self.latest_version > known_version
        self._look_anyway = False
        return news

    async def wait(self, timeout: float) -> bool:
        """Until rung or ``timeout``; True if rung. Clears the flag for the next wait."""
        if not self._rung.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):  # no task per wait, unlike wait_for
                    await self._rung.wait()
        rung = self._rung.is_set()
        self._rung.clear()
        return rung


class GameFanout:
    def __init__(self, redis: aioredis.Redis, channel: str, *, poll_interval: float = 5.0) -> None:
        self._redis = redis
        self.channel = channel
        self.poll_interval = poll_interval
        self._watches: defaultdict[str, set[GameWatch]] = defaultdict(set)
        self._pending: dict[str, int] = {}
        self._wake_publisher = asyncio.Event()
        self._subscribed = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False

    async def start(self) -> None:
        self._tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._publish())]
        await asyncio.wait_for(self._subscribed.wait(), timeout=10)

    async def close(self) -> None:
        # redis-py may swallow a cancellation that lands inside a call; the loops also check
        # this flag, so a swallowed cancel still ends them instead of hanging the close
        self._closing = True
        self._wake_publisher.set()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []

    # -- publishing ----------------------------------------------------------------------

    def announce(self, game_id: str, version: int) -> None:
        """Tell every process (this one at once) that ``game_id`` reached ``version``."""
        self._ring(game_id, version)
        if version > self._pending.get(game_id, 0):
            self._pending[game_id] = version
            self._wake_publisher.set()

    async def _publish(self) -> None:
        while not self._closing:
            await self._wake_publisher.wait()
            self._wake_publisher.clear()
            pending, self._pending = self._pending, {}
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for game_id, version in pending.items():
                        pipe.publish(self.channel, f"{version} {game_id}")
                    await pipe.execute()
            except (OSError, aioredis.RedisError) as error:
                # other processes fall back to polling the store; retry these later
                log.warning("could not publish game updates to redis: %s", error)
                for game_id, version in pending.items():
                    self._pending[game_id] = max(version, self._pending.get(game_id, 0))
                await asyncio.sleep(_RECONNECT_DELAY_SECONDS)
                self._wake_publisher.set()

    # -- listening -----------------------------------------------------------------------

    def watch(self, game_id: str) -> GameWatch:
        watch = GameWatch(game_id)
        self._watches[game_id].add(watch)
        return watch

    def unwatch(self, watch: GameWatch) -> None:
        watchers = self._watches.get(watch.game_id)
        if watchers is not None:
            watchers.discard(watch)
            if not watchers:
                del self._watches[watch.game_id]

    def _ring(self, game_id: str, version: int) -> None:
        for watch in list(self._watches.get(game_id, ())):
            watch.ring(version)

    def _ring_everybody(self) -> None:
        for watchers in list(self._watches.values()):
            for watch in list(watchers):
                watch.ring(0)

    async def _listen(self) -> None:
        while not self._closing:
            try:
                async with self._redis.pubsub() as pubsub:
                    await pubsub.subscribe(self.channel)
                    self._subscribed.set()
                    self._ring_everybody()  # whatever was missed while away: everybody looks once
                    async for message in pubsub.listen():
                        if self._closing:
                            return
                        if message.get("type") != "message":
                            continue
                        version, _, game_id = message["data"].decode().partition(" ")
                        if version.isdigit() and game_id:
                            self._ring(game_id, int(version))
            except (OSError, aioredis.RedisError) as error:
                log.warning("redis game-update channel lost: %s; watchers poll meanwhile", error)
            await asyncio.sleep(_RECONNECT_DELAY_SECONDS)
