"""Failed-login throttling, shared by every API process through Redis (the ``limits`` package,
as services/api/rate_limit.py).

Two budgets of *failed* logins, each a sliding window: per login name (a guess at one person's
password from many addresses) and per client address (one client guessing many names). A login
is refused with 429 before its password is even checked when either budget is spent, so a
guesser also does not get argon2's CPU for free. The login name is keyed by the sha256 of its
case-folded form: Redis never holds names. When Redis does not answer, logins are let through
(as the request limiter): argon2 still makes each guess slow.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import time

import redis.asyncio as aioredis
from limits import RateLimitItem, parse
from limits.aio.storage import RedisStorage
from limits.aio.strategies import SlidingWindowCounterRateLimiter

from services.accounts.errors import LoginThrottled

log = logging.getLogger(__name__)

STORAGE_TIMEOUT_SECONDS = 0.5


class LoginThrottle:
    def __init__(self, redis: aioredis.Redis, namespace: str, per_name: str, per_address: str) -> None:
        storage = RedisStorage(
            "async+redis://",
            implementation="redispy",
            connection_pool=redis.connection_pool,  # type: ignore[arg-type]  # limits types options as scalars
            key_prefix=f"bang:logins:{namespace}",
        )
        self._limiter = SlidingWindowCounterRateLimiter(storage)
        self.per_name = parse(per_name)
        self.per_address = parse(per_address)

    def _keys(self, key: str, address: str) -> list[tuple[RateLimitItem, str, str]]:
        name = hashlib.sha256(key.encode()).hexdigest()[:32]
        return [
            (self.per_name, f"name:{name}", "for this login name"),
            (self.per_address, f"address:{address}", "from this address"),
        ]

    async def check(self, key: str, address: str) -> None:
        """``LoginThrottled`` when a budget of failures is spent."""
        try:
            async with asyncio.timeout(STORAGE_TIMEOUT_SECONDS):
                for limit, identity, what in self._keys(key, address):
                    if not await self._limiter.test(limit, identity):
                        stats = await self._limiter.get_window_stats(limit, identity)
                        raise LoginThrottled(what, max(1, math.ceil(stats.reset_time - time.time())))
        except (aioredis.RedisError, OSError, TimeoutError) as error:
            log.warning("login throttle not checked (Redis: %s)", type(error).__name__)

    async def failed(self, key: str, address: str) -> None:
        try:
            async with asyncio.timeout(STORAGE_TIMEOUT_SECONDS):
                for limit, identity, _ in self._keys(key, address):
                    await self._limiter.hit(limit, identity)
        except (aioredis.RedisError, OSError, TimeoutError) as error:
            log.warning("failed login not counted (Redis: %s)", type(error).__name__)
