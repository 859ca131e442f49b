"""Where a runtime process finds PostgreSQL and Redis.

`BANG_DATABASE_URL` / `BANG_REDIS_URL` when set (production, compose); otherwise the embedded
servers keeping their data in the data dir (`BANG_DATA_DIR`, `.bang-data/`), so that a restart
of `bang-league serve` finds everything it had. Never a testcontainer: those are thrown away
when the process ends, which is right for tests and wrong for a server and its operator tools
(`bang-league status` must look at the same database `serve` writes to).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from infra.postgres import resolve_postgres
from infra.redis import resolve_redis
from infra.resolved import Source
from infra.settings import DockerSettings, InfraSettings


@dataclass(frozen=True, slots=True)
class Endpoints:
    dsn: str
    redis_url: str
    postgres_source: Source
    redis_source: Source
    data_dir: Path


def runtime_settings(settings: InfraSettings | None = None, data_dir: Path | None = None) -> InfraSettings:
    settings = settings or InfraSettings.from_env()
    settings = dataclasses.replace(settings, docker=DockerSettings(enabled=False))
    if data_dir is not None:
        settings = dataclasses.replace(settings, data_dir=data_dir)
    return settings


@contextmanager
def hold_infra(settings: InfraSettings | None = None, data_dir: Path | None = None) -> Iterator[Endpoints]:
    """The database and Redis, held for the block. Embedded servers this process started are
    stopped on exit unless another process (a running `serve`) still holds them."""
    settings = runtime_settings(settings, data_dir)
    with ExitStack() as stack:
        postgres = stack.enter_context(resolve_postgres(settings.data_dir, settings))
        redis = stack.enter_context(resolve_redis(settings.data_dir, settings))
        yield Endpoints(postgres.dsn, redis.url, postgres.source, redis.source, settings.data_dir)


def child_environment(endpoints: Endpoints) -> dict[str, str]:
    """What child processes of `serve` are told, so they connect instead of resolving again."""
    return {
        "BANG_DATABASE_URL": endpoints.dsn,
        "BANG_REDIS_URL": endpoints.redis_url,
        "BANG_DATA_DIR": str(endpoints.data_dir),
    }
