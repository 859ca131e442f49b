"""The ratings service's entry in the runtime's projection registry (services/runtime)."""

from __future__ import annotations

from services.ratings import store
from services.ratings.consumer import SUBSCRIPTION_NAME, ratings_subscription
from services.runtime.context import RuntimeContext
from services.runtime.projections import Built, ProjectionSpec


def _build(context: RuntimeContext) -> Built:
    return ratings_subscription(context.store, wakeups=context.wakeups)


PROJECTIONS: list[ProjectionSpec] = [
    ProjectionSpec(
        name=SUBSCRIPTION_NAME,
        build=_build,
        reset=store.reset,
        prepare=store.prepare_database,
        description="player ratings per role, rating history and fitted side offsets (services/ratings)",
    )
]
