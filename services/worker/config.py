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

import functools

from celery import Celery

from infra.postgres import resolve_postgres
from infra.redis import resolve_redis
from infra.resolved import Resolved
from infra.settings import InfraSettings
from services.runtime.infra import runtime_settings
from services.runtime.projections import service_modules

_held: list[object] = []
"""Embedded servers this process holds, for its whole life (resolution is cached)."""


def celery_url(redis_url: str) -> str:
    """The URL Celery understands for a Redis URL (``unix://`` → ``redis+socket://``)."""
    if redis_url.startswith("unix://"):
        return "redis+socket://" + redis_url.removeprefix("unix://")
    return redis_url


def task_modules() -> list[str]:
    """``services.<svc>.tasks`` for every service that has one (found without importing)."""
    return service_modules("tasks")


def _hold(resolved: Resolved) -> str:
    _held.append(resolved)
    return resolved.url


@functools.cache
def resolve_redis_url(settings: InfraSettings | None = None) -> str:
    """The Redis URL: ``BANG_REDIS_URL``, else the data dir's embedded server."""
    settings = runtime_settings(settings)
    return _hold(resolve_redis(settings.data_dir, settings))


@functools.cache
def resolve_database_url(settings: InfraSettings | None = None) -> str:
    """The PostgreSQL DSN tasks use: ``BANG_DATABASE_URL``, else the data dir's embedded server."""
    settings = runtime_settings(settings)
    return _hold(resolve_postgres(settings.data_dir, settings))


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
