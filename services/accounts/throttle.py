"""Login throttling, shared by every API process through Redis: a login's attempt is *reserved*
before its password is checked.

Two budgets, each a sliding window of attempts: per login name (a guess at one person's
password from many addresses) and per client address (one client guessing many names). Every
login first takes one place in both budgets, in one step (a Lua script: drop what left the
window, check both, count in both, atomically), and only then is its password hashed. So
however many attempts arrive at once, at most a budget's worth are ever hashed per window: the
others are refused with 429 before anything is read. An attempt stays counted whatever happens
to it (a wrong password, a name nobody has, a request cut off half-way); only a *successful*
login gives its place back (``release``), so a person who logs in often is not locked out by
their own successes: what the budgets hold back is failures, as before.

A budget is a sorted set of reservations scored by Redis's own clock (``TIME``: every process
sees one time), at most a budget's size long, expiring with its window. The ``limits`` package
(services/api/rate_limit.py) has no step that checks and counts two budgets at once, nor gives
a place back, hence the script. The login name is keyed by the sha256 of its case-folded form:
Redis never holds names. When Redis does not answer, logins are let through (as the request
limiter): argon2 still makes each guess slow, and the hash slots (passwords.py) bound how many
run at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import uuid
from dataclasses import dataclass

import redis.asyncio as aioredis
from limits import RateLimitItem, parse

from services.accounts.errors import LoginThrottled

log = logging.getLogger(__name__)

STORAGE_TIMEOUT_SECONDS = 0.5

_RESERVE = """
local now = redis.call('TIME')
local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
for i, key in ipairs(KEYS) do
  local amount = tonumber(ARGV[2 * i])
  local window = tonumber(ARGV[2 * i + 1])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now_ms - window)
  if redis.call('ZCARD', key) >= amount then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    local wait = window
    if oldest[2] then wait = tonumber(oldest[2]) + window - now_ms end
    return {i, wait}
  end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now_ms, ARGV[1])
  redis.call('PEXPIRE', key, tonumber(ARGV[2 * i + 1]))
end
return {0, 0}
"""
"""KEYS: the budgets' sets; ARGV: the reservation's id, then each budget's size and window (ms).
Answers ``{0, 0}`` when counted in every budget, else ``{budget's index, ms until a place frees}``
(and counts nowhere)."""


@dataclass(frozen=True, slots=True)
class Reservation:
    """One login's place in its budgets, given back only when it succeeds."""

    keys: tuple[str, ...]
    member: str


class LoginThrottle:
    def __init__(self, redis: aioredis.Redis, namespace: str, per_name: str, per_address: str) -> None:
        self._redis = redis
        self._prefix = f"bang:logins:{namespace}"
        self._reserve = redis.register_script(_RESERVE)
        self.per_name = parse(per_name)
        self.per_address = parse(per_address)

    def _budgets(self, key: str, address: str) -> list[tuple[RateLimitItem, str, str]]:
        name = hashlib.sha256(key.encode()).hexdigest()[:32]
        return [
            (self.per_name, f"{self._prefix}:name:{name}", "for this login name"),
            (self.per_address, f"{self._prefix}:address:{address}", "from this address"),
        ]

    async def reserve(self, key: str, address: str) -> Reservation | None:
        """Count one attempt in both budgets before its password is checked; ``LoginThrottled``
        (counting nothing) when either is spent; None when Redis does not answer (let through)."""
        budgets = self._budgets(key, address)
        member = uuid.uuid4().hex
        args: list[str | int] = [member]
        for limit, _, _ in budgets:
            args += [limit.amount, limit.get_expiry() * 1000]
        try:
            async with asyncio.timeout(STORAGE_TIMEOUT_SECONDS):
                spent, wait_ms = await self._reserve(keys=[k for _, k, _ in budgets], args=args)
        except (aioredis.RedisError, OSError, TimeoutError) as error:
            log.warning("login attempt not counted (Redis: %s)", type(error).__name__)
            return None
        if int(spent):
            what = budgets[int(spent) - 1][2]
            raise LoginThrottled(what, max(1, math.ceil(int(wait_ms) / 1000)))
        return Reservation(keys=tuple(k for _, k, _ in budgets), member=member)

    async def release(self, reservation: Reservation | None) -> None:
        """Give a successful login's place back (its attempt was no guess)."""
        if reservation is None:
            return
        try:
            async with asyncio.timeout(STORAGE_TIMEOUT_SECONDS):
                async with self._redis.pipeline(transaction=True) as pipe:
                    for key in reservation.keys:
                        pipe.zrem(key, reservation.member)
                    await pipe.execute()
        except (aioredis.RedisError, OSError, TimeoutError) as error:
            log.warning("successful login not given back (Redis: %s)", type(error).__name__)
