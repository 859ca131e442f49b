"""How the Celery app is built and where it finds Redis and PostgreSQL (no side effects on
import: ``app.py`` resolves and builds the process's app).

Redis comes from the project's resolution: ``BANG_REDIS_URL`` when set, else the embedded
server of the data dir (``BANG_DATA_DIR``), never a throwaway container. The embedded server
listens on a unix socket, ``unix:///…/redis.sock`` for redis-py; kombu and Celery's backend
spell that ``redis+socket:///…/redis.sock`` (``celery_url``).

Tasks must be safe to run twice: Redis delivers at least once (``task_acks_late`` re-queues a
task whose worker died), so every task derives its command ids from its arguments.
"""

from __future__ import annotations

import dataclasses
import functools
import pkgutil
from pathlib import Path

from celery import Celery

import services
from infra.postgres import resolve_postgres
from infra.redis import resolve_redis
from infra.settings import DockerSettings, InfraSettings

_held: list[object] = []
"""Embedded servers this process holds, for its whole life (resolution is cached)."""


def celery_url(redis_url: str) -> str:
    """The URL Celery understands for a Redis URL (``unix://`` → ``redis+socket://``)."""
    if redis_url.startswith("unix://"):
        return "redis+socket://" + redis_url.removeprefix("unix://")
    return redis_url


def task_modules() -> list[str]:
    """``services.<svc>.tasks`` for every service that has one (found without importing)."""
    found = []
    for root in services.__path__:
        for info in pkgutil.iter_modules([root]):
            if info.ispkg and (Path(root) / info.name / "tasks.py").is_file():
                found.append(f"services.{info.name}.tasks")
    return sorted(found)


@functools.cache
def resolve_redis_url(settings: InfraSettings | None = None) -> str:
    settings = settings or InfraSettings.from_env()
    if settings.redis.url:
        return settings.redis.url
    embedded = resolve_redis(
        settings.data_dir, dataclasses.replace(settings, docker=DockerSettings(enabled=False))
    )
    _held.append(embedded)
    return embedded.url


@functools.cache
def resolve_database_url(settings: InfraSettings | None = None) -> str:
    """The PostgreSQL DSN tasks use: ``BANG_DATABASE_URL``, else the data dir's embedded server."""
    settings = settings or InfraSettings.from_env()
    if settings.postgres.url:
        return settings.postgres.url
    embedded = resolve_postgres(
        settings.data_dir, dataclasses.replace(settings, docker=DockerSettings(enabled=False))
    )
    _held.append(embedded)
    return embedded.dsn


def create_app(redis_url: str) -> Celery:
    url = celery_url(redis_url)
    app = Celery("bang", broker=url, backend=url, include=task_modules())
    app.conf.update(
        task_acks_late=True,  # a task whose worker dies is delivered again: tasks are idempotent
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,  # long tasks (bot rounds): don't hoard them in one worker
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        result_expires=24 * 3600,
        broker_connection_retry_on_startup=True,
        task_track_started=True,
    )
    return app
