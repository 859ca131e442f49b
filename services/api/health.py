"""What the API's ``/health`` asks: PostgreSQL and Redis, at once, each within a short timeout.

The database is asked on a connection of its own, never through the request pool: when a
stalled server has every pooled connection stuck in a query, a probe queued behind them would
answer only once they time out, and a health check must answer within a second whatever the
database does. Nothing here raises: each check says ``"ok"`` or why not.
"""

from __future__ import annotations

import asyncio

import asyncpg
import redis.asyncio as aioredis

OK = "ok"

_DATABASE_ERRORS = (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)
_REDIS_ERRORS = (OSError, TimeoutError, aioredis.RedisError)


def unavailable(error: BaseException) -> str:
    # the class name only: a message may name addresses or say anything else
    return f"unavailable: {type(error).__name__}"


class DatabaseProbe:
    """``SELECT 1`` on one connection kept for probing, reopened after any failure."""

    def __init__(self, dsn: str, timeout: float) -> None:
        self._dsn = dsn
        self.timeout = timeout
        self._connection: asyncpg.Connection | None = None
        self._lock = asyncio.Lock()  # one query at a time on the one connection

    async def check(self) -> str:
        try:
            async with asyncio.timeout(self.timeout):
                async with self._lock:
                    await self._ask()
        except _DATABASE_ERRORS as error:
            return unavailable(error)
        return OK

    async def _ask(self) -> None:
        try:
            if self._connection is None or self._connection.is_closed():
                self._connection = await asyncpg.connect(self._dsn, timeout=self.timeout)
            await self._connection.fetchval("SELECT 1")
        except BaseException:
            # a timeout included: a connection with a query still in flight is not reusable
            self._discard()
            raise

    def _discard(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.terminate()

    async def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                async with asyncio.timeout(self.timeout):
                    await connection.close()
            except _DATABASE_ERRORS:
                connection.terminate()


async def check_redis(redis: aioredis.Redis, timeout: float) -> str:
    try:
        async with asyncio.timeout(timeout):
            await redis.ping()
    except _REDIS_ERRORS as error:
        return unavailable(error)
    return OK


async def check_dependencies(probe: DatabaseProbe, redis: aioredis.Redis) -> dict[str, str]:
    """``{"database": …, "redis": …}``, both asked at once: within ``probe.timeout`` in all."""
    database, redis_state = await asyncio.gather(probe.check(), check_redis(redis, probe.timeout))
    return {"database": database, "redis": redis_state}
