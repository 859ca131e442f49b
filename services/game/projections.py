"""The game service's entry in the runtime's projection registry (services/runtime).

``game-deadlines`` is a projection with a companion: the subscription keeps ``game_deadlines``
up to date, and in the same process a sweeper plays the default of every overdue decision
(``services/game/application/deadlines.py``). The sweeper runs wherever the projection runs - one process
per compose consumer, or ``consume --all`` under ``serve`` - and however many copies run, each
default is stored once (see the module docstring there for why).
"""

from __future__ import annotations

import asyncio

from services.game.application import deadlines
from services.game.application.service import GameService
from services.game.fairness.vault import SeedVault
from services.runtime.context import RuntimeContext
from services.runtime.projections import Built, ProjectionSpec


def _build(context: RuntimeContext) -> Built:
    return deadlines.deadlines_subscription(context.store, wakeups=context.wakeups)


async def _sweep(context: RuntimeContext, stop: asyncio.Event) -> None:
    service = GameService(context.store, SeedVault(context.pool))
    await deadlines.Sweeper(context.pool, service).run(stop)


PROJECTIONS: list[ProjectionSpec] = [
    ProjectionSpec(
        name=deadlines.PROJECTION_NAME,
        build=_build,
        reset=deadlines.reset,
        prepare=deadlines.prepare_database,
        companion=_sweep,
        description="decision deadlines of ongoing games; its sweeper plays overdue defaults (services/game)",
    )
]
