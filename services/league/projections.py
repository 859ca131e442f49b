"""The league service's entry in the runtime's projection registry (services/runtime)."""

from __future__ import annotations

from services.league import read_model
from services.league.standings import PROJECTION_NAME, StandingsProjection
from services.runtime.context import RuntimeContext
from services.runtime.projections import Built, ProjectionSpec


def _build(context: RuntimeContext) -> Built:
    return StandingsProjection(context.store, redis_url=context.redis_url, wakeups=context.wakeups)


PROJECTIONS: list[ProjectionSpec] = [
    ProjectionSpec(
        name=PROJECTION_NAME,
        build=_build,
        reset=read_model.reset,
        prepare=read_model.prepare_database,
        description="league standings, rounds, tables and head-to-head (services/league)",
    )
]
