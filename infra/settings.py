"""Settings for the infrastructure the project runs on, read from the environment.

One frozen dataclass per concern. `InfraSettings.from_env()` reads a mapping (the process
environment by default) so tests can build settings without touching `os.environ`;
`load_settings()` reads the real environment each time it is asked (a handful of variables,
read only when a server is resolved or a context opened): a cached copy outlived the
environment it was read from, so a command run in-process (a test's `CliRunner`) went on
reaching an earlier test's database.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

_FALSE_WORDS = frozenset({"0", "false", "no", "off"})

DEFAULT_CONNECT_TIMEOUT_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class PostgresSettings:
    """Where PostgreSQL comes from when nothing is started by hand.

    `url` (env `BANG_DATABASE_URL`) wins when set: it is used verbatim.
    """

    url: str | None = None
    container_image: str = "postgres:17-alpine"
    connect_timeout_seconds: float | None = DEFAULT_CONNECT_TIMEOUT_SECONDS
    """env `BANG_DATABASE_CONNECT_TIMEOUT` (0: no limit). The only database limit of processes
    that serve no requests (consumers, workers, operator commands): their work may take long,
    and waiting out a stalled server is all they can do; the API sets more (ApiSettings)."""


@dataclass(frozen=True, slots=True)
class RedisSettings:
    """Where Redis comes from; `url` (env `BANG_REDIS_URL`) wins when set."""

    url: str | None = None
    container_image: str = "redis:7-alpine"


@dataclass(frozen=True, slots=True)
class DockerSettings:
    """Whether to try testcontainers, and how long to wait for a Docker engine to answer.

    `enabled` (env `BANG_USE_CONTAINERS`, default on) lets a machine that has Docker still
    choose the embedded servers; `host` is `DOCKER_HOST` when set.
    """

    enabled: bool = True
    host: str | None = None
    probe_timeout_seconds: float = 0.5


@dataclass(frozen=True, slots=True)
class InfraSettings:
    postgres: PostgresSettings
    redis: RedisSettings
    docker: DockerSettings
    # Where embedded servers keep their data (env `BANG_DATA_DIR`, default `.bang-data`).
    data_dir: Path

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> InfraSettings:
        env = os.environ if env is None else env
        return cls(
            postgres=PostgresSettings(
                url=env.get("BANG_DATABASE_URL") or None,
                connect_timeout_seconds=seconds_or_none(
                    env, "BANG_DATABASE_CONNECT_TIMEOUT", DEFAULT_CONNECT_TIMEOUT_SECONDS
                ),
            ),
            redis=RedisSettings(url=env.get("BANG_REDIS_URL") or None),
            docker=DockerSettings(
                enabled=env.get("BANG_USE_CONTAINERS", "1").strip().lower() not in _FALSE_WORDS,
                host=env.get("DOCKER_HOST") or None,
            ),
            data_dir=Path(env.get("BANG_DATA_DIR") or ".bang-data"),
        )


def seconds_or_none(env: Mapping[str, str], name: str, default: float | None) -> float | None:
    """A duration in seconds from `env[name]`; `0` means no limit (None)."""
    raw = (env.get(name) or "").strip()
    if not raw:
        return default
    try:
        seconds = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds, not {raw!r}") from None
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"{name} must be 0 (no limit) or a positive number of seconds, not {raw!r}")
    return seconds or None


def load_settings() -> InfraSettings:
    """The settings the process environment gives now."""
    return InfraSettings.from_env()
