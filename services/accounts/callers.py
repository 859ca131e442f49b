"""``CallerCache``: who a session or API token speaks for, remembered for a few seconds.

Resolving an account's caller takes several reads (the session or token, pending club invites,
the display name, the club roles), and every authenticated request needs it. So each process
keeps what it resolved, by the token's sha256, for at most ``ttl`` seconds, as the game's token
vault does (services/game/edge/tokens.py), and drops it at once when the account changes:

- **in this process**, the write that changes what a token may do (log out, log out
  everywhere, a password changed, an API token revoked, a club role granted or revoked, an
  invite accepted) calls ``forget(account_id)`` after it commits: the very next request is
  resolved from the database again;
- **in the others**, ``forget`` also publishes the account id on Redis, where every process's
  cache drops that account's entries. Redis only speeds it up: a lost message is made good by
  the TTL, the bound on how long another process may still trust a revoked token.

What is cached is whatever the resolver made (the clubs' ``Principal``); a refusal is never
cached (a bad token pays its reads each time, and is refused in its own words). An entry also
ends at its token's own expiry.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Generic, TypeVar

import redis.asyncio as aioredis

log = logging.getLogger(__name__)

CACHE_TTL_SECONDS = 5.0
"""How long a process trusts an account's caller it resolved: the bound on how late another
process notices a logout or a revoked role whose Redis message was lost."""
_CACHE_SIZE = 50_000
_RECONNECT_DELAY_SECONDS = 1.0

T = TypeVar("T")


def changes_channel(namespace: str) -> str:
    """One channel per database, like the vault's revocations."""
    return f"bang:accounts:{namespace}:changed"


@dataclass(slots=True)
class _Entry(Generic[T]):
    value: T
    account_id: str
    expires_at: datetime | None
    checked_at: float


class CallerCache(Generic[T]):
    """Token digest → resolved caller, per process; see the module's docstring."""

    def __init__(
        self,
        *,
        redis: aioredis.Redis | None = None,
        channel: str | None = None,
        ttl: float = CACHE_TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if (redis is None) != (channel is None):
            raise ValueError("changes are published with a Redis client and a channel, or not at all")
        self._redis = redis
        self.channel = channel
        self.ttl = ttl
        self._clock = clock
        self._entries: OrderedDict[bytes, _Entry[T]] = OrderedDict()
        self._by_account: dict[str, set[bytes]] = {}
        self._generation = 0
        """Moves at every forget: a resolve that saw it move keeps nothing (a change may have
        crossed its reads)."""
        self._listener: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()
        self._closing = False

    async def start(self) -> None:
        """Listen for other processes' changes (when given Redis)."""
        if self._redis is not None and self._listener is None:
            self._closing = False
            self._listener = asyncio.create_task(self._listen())
            await asyncio.wait_for(self._subscribed.wait(), timeout=10)

    async def close(self) -> None:
        self._closing = True
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None

    # -- reading, remembering ------------------------------------------------------------------

    def get(self, digest: bytes) -> T | None:
        entry = self._entries.get(digest)
        if entry is None:
            return None
        if self._clock() - entry.checked_at >= self.ttl or (
            entry.expires_at is not None and entry.expires_at <= datetime.now(UTC)
        ):
            self._remove(digest)
            return None
        self._entries.move_to_end(digest)
        return entry.value

    def mark(self) -> tuple[float, int]:
        """Taken before the reads of a resolve; handed back to ``put``."""
        return self._clock(), self._generation

    def put(
        self,
        mark: tuple[float, int],
        digest: bytes,
        account_id: str,
        value: T,
        expires_at: datetime | None,
    ) -> None:
        checked_at, generation = mark
        if generation != self._generation:  # a change may have crossed the reads: keep nothing
            return
        self._remove(digest)
        self._entries[digest] = _Entry(value, account_id, expires_at, checked_at)
        self._by_account.setdefault(account_id, set()).add(digest)
        while len(self._entries) > _CACHE_SIZE:
            self._remove(next(iter(self._entries)))

    def _remove(self, digest: bytes) -> None:
        entry = self._entries.pop(digest, None)
        if entry is not None:
            digests = self._by_account.get(entry.account_id)
            if digests is not None:
                digests.discard(digest)
                if not digests:
                    del self._by_account[entry.account_id]

    # -- forgetting ------------------------------------------------------------------------------

    async def forget(self, account_ids: Iterable[str]) -> None:
        """Drop these accounts' callers here at once, and tell the other processes to."""
        accounts = sorted(set(account_ids))
        if not accounts:
            return
        self._drop(accounts)
        if self._redis is not None and self.channel is not None:
            try:
                await self._redis.publish(self.channel, " ".join(accounts))
            except (OSError, aioredis.RedisError) as error:
                # the other processes' TTL still bounds how long they trust these callers
                log.warning("could not publish %d account change(s): %s", len(accounts), error)

    def _drop(self, account_ids: Iterable[str]) -> None:
        self._generation += 1
        for account_id in account_ids:
            for digest in list(self._by_account.get(account_id, ())):
                self._remove(digest)

    def clear(self) -> None:
        self._generation += 1
        self._entries.clear()
        self._by_account.clear()

    async def _listen(self) -> None:
        assert self._redis is not None and self.channel is not None
        while not self._closing:
            try:
                async with self._redis.pubsub() as pubsub:
                    await pubsub.subscribe(self.channel)
                    self._subscribed.set()
                    # what was missed while away is at most ttl old: drop it all anyway
                    self.clear()
                    async for message in pubsub.listen():
                        if self._closing:
                            return
                        if message.get("type") == "message":
                            data = message["data"]
                            text = data.decode() if isinstance(data, bytes) else str(data)
                            self._drop(text.split())
            except (OSError, aioredis.RedisError) as error:
                log.warning("redis account-change channel lost: %s; the cache TTL bounds staleness", error)
            await asyncio.sleep(_RECONNECT_DELAY_SECONDS)
