"""Run registered projections in this process until told to stop.

Each projection follows the store in its own task. The lag of each (head − checkpoint) is
measured every few seconds, published as metrics and kept as the snapshot `/health` reads.
A projection whose handler fails ends the whole process with an error: its batch rolled
back, and the supervisor (serve, compose, Kubernetes) restarting the process retries it. A
projection's companion (`ProjectionSpec.companion`) runs in a task beside it, under the same
rule.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from event_store import StoreUnavailable, checkpoint_of
from event_store.postgres_store import CONNECTION_ERRORS
from services.runtime.context import RuntimeContext
from services.runtime.logging import get_logger
from services.runtime.metrics import record_lag
from services.runtime.projections import Built, ProjectionSpec, close_built, subscription_of

log = get_logger(__name__)

LAG_INTERVAL_SECONDS = 2.0
STALE_AFTER_SECONDS = 30.0
"""`/health` fails when the lag could not be measured for this long (database gone)."""


@dataclass(slots=True)
class ConsumerHealth:
    """A snapshot the health thread can read without touching the event loop."""

    lag: dict[str, dict[str, int]] = field(default_factory=dict)
    measured_at: float = 0.0
    failed: str | None = None

    def check(self) -> tuple[bool, dict[str, Any]]:
        fresh = time.monotonic() - self.measured_at < STALE_AFTER_SECONDS
        details: dict[str, Any] = {"projections": self.lag}
        if self.failed:
            details["failed"] = self.failed
        elif not fresh:
            details["problem"] = "lag not measured recently (database unreachable?)"
        return self.failed is None and fresh, details


async def measure_lag(context: RuntimeContext, names: Sequence[str]) -> dict[str, dict[str, int]]:
    head = await context.store.head_position()
    lag = {}
    for name in names:
        checkpoint = await checkpoint_of(context.pool, name)
        record_lag(name, checkpoint, head)
        lag[name] = {"checkpoint": checkpoint, "head": head, "lag": max(head - checkpoint, 0)}
    return lag


async def run_consumers(
    context: RuntimeContext,
    specs: Sequence[ProjectionSpec],
    stop: asyncio.Event,
    health: ConsumerHealth | None = None,
) -> None:
    """Follow the store with every projection in `specs` until `stop` is set. Raises the
    first projection's failure (after stopping the others)."""
    health = health or ConsumerHealth()
    built: list[Built] = [spec.build(context) for spec in specs]
    try:
        async with asyncio.TaskGroup() as group:
            for spec, projection in zip(specs, built, strict=True):
                group.create_task(_follow(spec.name, projection, stop, health), name=spec.name)
                if spec.companion is not None:
                    name = f"{spec.name} companion"
                    group.create_task(_guard(name, spec.companion(context, stop), stop, health), name=name)
            group.create_task(_watch_lag(context, [s.name for s in specs], stop, health))
    finally:
        for projection in built:
            await close_built(projection)


async def _follow(name: str, projection: Built, stop: asyncio.Event, health: ConsumerHealth) -> None:
    log.info("projection following the store", projection=name)
    await _guard(name, subscription_of(projection).run(stop), stop, health)


async def _guard(name: str, work: Awaitable[None], stop: asyncio.Event, health: ConsumerHealth) -> None:
    """Run a projection's (or its companion's) work; a failure marks the process unhealthy
    and stops the others, so that the supervisor restarts the whole process."""
    try:
        await work
    except Exception as error:
        health.failed = f"{name}: {type(error).__name__}: {error}"
        log.exception("projection failed; stopping", projection=name)
        stop.set()
        raise


async def _watch_lag(
    context: RuntimeContext, names: list[str], stop: asyncio.Event, health: ConsumerHealth
) -> None:
    while not stop.is_set():
        try:
            health.lag = await measure_lag(context, names)
            health.measured_at = time.monotonic()
        except (StoreUnavailable, asyncpg.PostgresError, *CONNECTION_ERRORS) as error:  # it may come back
            log.warning("could not measure projection lag", error=str(error))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), LAG_INTERVAL_SECONDS)
