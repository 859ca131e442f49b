"""The API's settings: one frozen dataclass per concern, read once from the environment.

``ApiSettings.from_env(env)`` reads a mapping (``os.environ`` by default) so tests build
settings without touching the process environment. A database or Redis URL left unset means
"resolve it the project's way" (``infra/``: a container when Docker answers, else the embedded
servers keeping their data in ``data_dir``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path


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


@dataclass(frozen=True, slots=True)
class ApiSettings:
    database: DatabaseSettings = field(default_factory=DatabaseSettings)
    redis: RedisSettings = field(default_factory=RedisSettings)
    server: ServerSettings = field(default_factory=ServerSettings)
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
            ),
            limits=LimitSettings.from_env(env),
            data_dir=Path(env.get("BANG_DATA_DIR") or ".bang-data"),
        )
