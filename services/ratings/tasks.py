"""The ratings service's Celery tasks.

    ratings.rebuild   recompute every rating from the first event into a fresh generation,
                      then swap it in (see ``consumer.rebuild``)

Safe to deliver twice: a rebuild is keyed by ``rebuild_id`` (default: the task id, which a
redelivery keeps), so a second delivery finds the work done, or resumes it if the worker died
half way; rebuilds take turns on a PostgreSQL lock, so two deliveries never work at once. A
rebuild under another id redoes the work into a new generation with the same rows.
The database is the worker's (``services.worker.config.resolve_database_url``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
from celery import Task, shared_task

from event_store import create_pool
from services.ratings.consumer import rebuild
from services.ratings.model import RatingConfig

REBUILD_TASK = "ratings.rebuild"


async def _rebuild(dsn: str, config: RatingConfig, rebuild_id: str | None) -> dict[str, Any]:
    pool = await create_pool(dsn, min_size=1, max_size=3)
    try:
        report = await rebuild(pool, config=config, rebuild_id=rebuild_id)
    finally:
        await pool.close()
    return msgspec.to_builtins(report)


@shared_task(name=REBUILD_TASK, bind=True, acks_late=True)
def rebuild_ratings(
    self: Task, config: dict[str, Any] | None = None, rebuild_id: str | None = None
) -> dict[str, Any]:
    """Rebuild the ratings. ``config`` holds the ``RatingConfig`` fields that differ from the
    code's defaults (JSON, to travel through the broker); the new generation keeps rating
    with it after the swap. Returns the ``RebuildReport`` as a dict."""
    # imported here: resolving the database may start the embedded server, which only a
    # running task should do (a process that merely sends the task must not)
    from services.worker.config import resolve_database_url

    rating_config = msgspec.convert(config or {}, RatingConfig)
    return asyncio.run(_rebuild(resolve_database_url(), rating_config, rebuild_id or self.request.id))
