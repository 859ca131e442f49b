"""Bring the whole schema up to date: the event store, every service, every projection.

Each service that owns tables exposes `prepare_database(pool)` in `services/<svc>/schema.py`
(the game service does); projections bring their own through `ProjectionSpec.prepare`. All of
them are idempotent and the migrator serialises concurrent runs with an advisory lock, so every
process may call this at start-up and the one-shot `bang-league migrate` is only a fast path.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

import asyncpg

from event_store import migrate
from services.runtime.projections import ProjectionSpec, service_modules


async def prepare_all(pool: asyncpg.Pool, projections: Iterable[ProjectionSpec]) -> None:
    async with pool.acquire() as connection:
        await migrate(connection)
    for module_name in service_modules("schema"):
        prepare = getattr(importlib.import_module(module_name), "prepare_database", None)
        if prepare is not None:
            await prepare(pool)
    for spec in projections:
        if spec.prepare is not None:
            await spec.prepare(pool)
