"""The API's settings: one frozen dataclass per concern, read once from the environment.

``ApiSettings.from_env(env)`` reads a mapping (``os.environ`` by default) so tests build
settings without touching the process environment. A database or Redis URL left unset means
"resolve it the project's way" (``infra/``: a container when Docker answers, else the embedded
servers keeping their data in ``data_dir``).
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from event_store import PoolTimeouts
from infra.settings import DEFAULT_CONNECT_TIMEOUT_SECONDS, seconds_or_none


@dataclass(frozen=True, slots=True)
class DatabaseSettings:
    url: str | None = None
    """env ``BANG_DATABASE_URL``."""
    pool_min_size: int = 2
    pool_max_size: int = 10
    """env ``BANG_DATABASE_POOL_SIZE``: connections per API process."""


@dataclass(frozen=True, slots=True)
class RedisSettings:
    url: str | None = None
    """env ``BANG_REDIS_URL``."""


@dataclass(frozen=True, slots=True)
class ServerSettings:
    host: str = "127.0.0.1"
    """env ``BANG_API_HOST``; loopback unless told otherwise."""
    port: int = 8000
    """env ``BANG_API_PORT``."""
    request_max_body_size: int = 256 * 1024
    """env ``BANG_API_MAX_BODY_BYTES``: a command is ~100 bytes and a long table record ~50 KB;
    anything far beyond is refused with 413 before it is read."""
    game_cache_size: int = 2_000
    """Games kept folded in memory per process (the service re-reads only new events)."""
    fanout_poll_seconds: float = 5.0
    """A live subscriber re-reads the store this often even without a Redis wake-up."""
    trusted_proxies: tuple[str, ...] = ()
    """env ``BANG_TRUSTED_PROXIES`` (comma-separated addresses or networks, e.g.
    ``10.0.0.5,192.168.1.0/24``): the reverse proxies whose ``X-Forwarded-For`` names the
    client. None by default: a client's own address is what it is known (and rate-limited) by,
    whatever header it sends (services/api/server.py)."""
    header_timeout: float = 10.0
    """env ``BANG_API_HEADER_TIMEOUT``: seconds a connection may take to send a request's
    headers (from connecting, or from the first byte of its next request); then 408 and closed."""


@dataclass(frozen=True, slots=True)
class TimeoutSettings:
    """How long a request waits for PostgreSQL or Redis before it is answered 503 with
    ``Retry-After`` (seconds; ``0`` in the environment: no limit).

    A stopped server still accepts connections but never answers, so what ends a request's wait
    is the client side: at most ``database_acquire`` for a pooled connection, then
    ``database_command`` for the query (plus a quarter second to throw the connection away):
    about 2 s either way. The acquire limit is the longer one: a saturated but healthy server
    queues for connections (the API benchmark's closed loop saw 1 s waits at 50 concurrent games
    on 10 connections), and it should shed that load only past the stall budget. Start-up
    migrations run on a connection without these limits.
    """

    database_connect: float | None = DEFAULT_CONNECT_TIMEOUT_SECONDS
    """env ``BANG_DATABASE_CONNECT_TIMEOUT``; on a request path the acquire limit comes first."""
    database_acquire: float | None = 2.0
    """env ``BANG_DATABASE_ACQUIRE_TIMEOUT``: waiting for a pooled connection."""
    database_command: float | None = 1.5
    """env ``BANG_DATABASE_COMMAND_TIMEOUT``: one query, client side."""
    database_statement: float | None = 1.5
    """env ``BANG_DATABASE_STATEMENT_TIMEOUT``: one statement, server side (``statement_timeout``)."""
    database_idle_in_transaction: float | None = 10.0
    """env ``BANG_DATABASE_IDLE_IN_TRANSACTION_TIMEOUT``: the server ends a transaction left idle
    (``idle_in_transaction_session_timeout``), so a stalled API process cannot hold locks."""
    redis: float | None = 1.0
    """env ``BANG_REDIS_TIMEOUT``: connecting to Redis, and each read or write."""
    health: float = 0.75
    """env ``BANG_HEALTH_TIMEOUT``: ``/health`` checks PostgreSQL and Redis at once, each this long."""

    def pool(self) -> PoolTimeouts:
        return PoolTimeouts(
            connect=self.database_connect,
            acquire=self.database_acquire,
            command=self.database_command,
            statement=self.database_statement,
            idle_in_transaction=self.database_idle_in_transaction,
        )

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> TimeoutSettings:
        default = cls()

        def seconds(name: str, value: float | None) -> float | None:
            return seconds_or_none(env, name, value)

        return cls(
            database_connect=seconds("BANG_DATABASE_CONNECT_TIMEOUT", default.database_connect),
            database_acquire=seconds("BANG_DATABASE_ACQUIRE_TIMEOUT", default.database_acquire),
            database_command=seconds("BANG_DATABASE_COMMAND_TIMEOUT", default.database_command),
            database_statement=seconds("BANG_DATABASE_STATEMENT_TIMEOUT", default.database_statement),
            database_idle_in_transaction=seconds(
                "BANG_DATABASE_IDLE_IN_TRANSACTION_TIMEOUT", default.database_idle_in_transaction
            ),
            redis=seconds("BANG_REDIS_TIMEOUT", default.redis),
            health=seconds("BANG_HEALTH_TIMEOUT", default.health) or default.health,
        )


@dataclass(frozen=True, slots=True)
class LimitSettings:
    """What one request may ask for, and how much one client may ask for per window
    (``services/api/graphql_cost.py``, ``services/api/rate_limit.py``; docs/api.md "Limits").

    Rates are in the ``limits`` package's notation ("300/second", "1000 per 10 seconds"). A
    GraphQL request counts as ``ceil(cost / graphql_cost_per_request)`` requests (at least one),
    so a client that asks for expensive fields spends its budget faster.
    """

    rate_limit: str = "300/second"
    """env ``BANG_API_RATE_LIMIT``: each valid token's budget, shared by every API process."""
    anonymous_rate_limit: str = "100/second"
    """env ``BANG_API_RATE_LIMIT_ANONYMOUS``: each client address's budget without a valid token."""
    graphql_cost_per_request: int = 400
    """env ``BANG_GRAPHQL_COST_PER_REQUEST``: the query cost that counts as one request."""
    graphql_max_cost: int = 10_000
    """env ``BANG_GRAPHQL_MAX_COST``: the most one operation may cost (the table in docs/api.md)."""
    graphql_max_depth: int = 10
    """env ``BANG_GRAPHQL_MAX_DEPTH``: nested selections (the dashboard's deepest is 4)."""
    graphql_max_aliases: int = 15
    """env ``BANG_GRAPHQL_MAX_ALIASES``: aliased fields in one document (the dashboard uses none)."""
    graphql_max_tokens: int = 2_000
    """env ``BANG_GRAPHQL_MAX_TOKENS``: lexical tokens in one document (the dashboard's largest
    has ~100); parsing stops at the first one past it."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> LimitSettings:
        default = cls()

        def number(name: str, value: int) -> int:
            return int(env.get(name) or value)

        return cls(
            rate_limit=env.get("BANG_API_RATE_LIMIT") or default.rate_limit,
            anonymous_rate_limit=env.get("BANG_API_RATE_LIMIT_ANONYMOUS") or default.anonymous_rate_limit,
            graphql_cost_per_request=number(
                "BANG_GRAPHQL_COST_PER_REQUEST", default.graphql_cost_per_request
            ),
            graphql_max_cost=number("BANG_GRAPHQL_MAX_COST", default.graphql_max_cost),
            graphql_max_depth=number("BANG_GRAPHQL_MAX_DEPTH", default.graphql_max_depth),
            graphql_max_aliases=number("BANG_GRAPHQL_MAX_ALIASES", default.graphql_max_aliases),
            graphql_max_tokens=number("BANG_GRAPHQL_MAX_TOKENS", default.graphql_max_tokens),
        )


def addresses(text: str) -> tuple[str, ...]:
    """``"10.0.0.5, 192.168.1.0/24"`` as its addresses and networks; a word that is neither is
    refused at start-up, naming it (a typo must not silently trust nobody, or everybody)."""
    found = tuple(part.strip() for part in text.split(",") if part.strip())
    for address in found:
        try:
            ipaddress.ip_network(address, strict=False)
        except ValueError:
            raise ValueError(f"BANG_TRUSTED_PROXIES: {address!r} is not an IP address or network") from None
    return found


@dataclass(frozen=True, slots=True)
class ApiSettings:
    database: DatabaseSettings = field(default_factory=DatabaseSettings)
    redis: RedisSettings = field(default_factory=RedisSettings)
    server: ServerSettings = field(default_factory=ServerSettings)
    timeouts: TimeoutSettings = field(default_factory=TimeoutSettings)
    limits: LimitSettings = field(default_factory=LimitSettings)
    data_dir: Path = Path(".bang-data")
    """env ``BANG_DATA_DIR``: where embedded PostgreSQL and Redis keep their data."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ApiSettings:
        env = os.environ if env is None else env
        server, database = ServerSettings(), DatabaseSettings()
        return cls(
            database=DatabaseSettings(
                url=env.get("BANG_DATABASE_URL") or None,
                pool_max_size=int(env.get("BANG_DATABASE_POOL_SIZE") or database.pool_max_size),
            ),
            redis=RedisSettings(url=env.get("BANG_REDIS_URL") or None),
            server=ServerSettings(
                host=env.get("BANG_API_HOST") or server.host,
                port=int(env.get("BANG_API_PORT") or server.port),
                request_max_body_size=int(env.get("BANG_API_MAX_BODY_BYTES") or server.request_max_body_size),
                trusted_proxies=addresses(env.get("BANG_TRUSTED_PROXIES") or ""),
                header_timeout=float(env.get("BANG_API_HEADER_TIMEOUT") or server.header_timeout),
            ),
            timeouts=TimeoutSettings.from_env(env),
            limits=LimitSettings.from_env(env),
            data_dir=Path(env.get("BANG_DATA_DIR") or ".bang-data"),
        )
