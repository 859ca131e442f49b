"""The directory's entry in the runtime's projection registry (services/runtime)."""

from __future__ import annotations

from services.directory.projection import PROJECTION_NAME, directory_subscription, prepare_database, reset
from services.runtime.context import RuntimeContext
from services.runtime.projections import Built, ProjectionSpec


def _build(context: RuntimeContext) -> Built:
    return directory_subscription(context.store, wakeups=context.wakeups)


PROJECTIONS: list[ProjectionSpec] = [
    ProjectionSpec(
        name=PROJECTION_NAME,
        build=_build,
        reset=reset,
        prepare=prepare_database,
        description="games, leagues, tournaments, rounds: the lists and searches (services/directory)",
    )
]
