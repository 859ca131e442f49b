"""The ratings service's entry in the runtime's projection registry (services/runtime)."""

from __future__ import annotations

import asyncio

from services.ratings import store
from services.ratings.consumer import SUBSCRIPTION_NAME, follow_rebuild_requests, ratings_subscription
from services.runtime.context import RuntimeContext
from services.runtime.projections import Built, ProjectionSpec


def _build(context: RuntimeContext) -> Built:
    return ratings_subscription(context.store, wakeups=context.wakeups)


async def _rebuild_requests(context: RuntimeContext, stop: asyncio.Event) -> None:
    await follow_rebuild_requests(context.pool, stop)


PROJECTIONS: list[ProjectionSpec] = [
    ProjectionSpec(
        name=SUBSCRIPTION_NAME,
        build=_build,
        reset=store.reset,
        prepare=store.prepare_database,
        companion=_rebuild_requests,
        description="player ratings per role, rating history and fitted side offsets (services/ratings)",
    )
]
