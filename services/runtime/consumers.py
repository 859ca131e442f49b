"""Run registered projections in this process until told to stop.

Each projection follows the store in its own task. The lag of each (head − checkpoint) and
its hold, if any, are read every few seconds, published as metrics and kept as the snapshot
`/health` reads.

Nothing one projection does may stop the others, nor the process: an event a projection
cannot apply holds that projection at the event (see `event_store.subscription`: recorded in
`subscription_holds`, shown by `bang-league status`, `/health` and the metrics, resolved with
`bang-league projections retry|skip`) while the others keep up. A task that fails for any
other reason (a bug outside the handler, a companion's error) is restarted in this process
after a growing back-off, and shown as failing meanwhile: restarting the whole process,
as before, only restarted every other projection with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import traceback
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

import asyncpg

from event_store import StoreUnavailable, checkpoint_of
from event_store.postgres_store import CONNECTION_ERRORS
from event_store.subscription import FailedAttempt, Hold, describe_error, open_holds
from services.runtime.context import RuntimeContext
from services.runtime.logging import get_logger
from services.runtime.metrics import record_failed_attempt, record_held, record_lag, record_task_restart
from services.runtime.projections import Built, ProjectionSpec, close_built, subscription_of

log = get_logger(__name__)

LAG_INTERVAL_SECONDS = 2.0
STALE_AFTER_SECONDS = 30.0
"""`/health` fails when the lag could not be measured for this long (database gone)."""
RESTART_BACKOFF_SECONDS = (1.0, 30.0)
"""A failed task is restarted after 1 s, then twice as long each time, at most 30 s."""
HEALTHY_AFTER_SECONDS = 10.0
"""A restarted task that ran this long is no longer reported as failing."""
STABLE_AFTER_SECONDS = 60.0
"""A task that ran this long before failing starts its back-off over."""


@dataclass(slots=True)
class ConsumerHealth:
    """A snapshot the health thread can read without touching the event loop."""

    lag: dict[str, dict[str, int]] = field(default_factory=dict)
    measured_at: float = 0.0
    held: dict[str, dict[str, object]] = field(default_factory=dict)
    """Projections held at an event they could not apply: where, which event, what error."""
    failing: dict[str, str] = field(default_factory=dict)
    """Tasks that failed and wait for their restart: the error's class and bounded message."""

    def check(self) -> tuple[bool, dict[str, Any]]:
        fresh = time.monotonic() - self.measured_at < STALE_AFTER_SECONDS
        details: dict[str, Any] = {"projections": self.lag}
        if self.held:
            details["held"] = self.held
        if self.failing:
            details["failing"] = self.failing
        if not fresh:
            details["problem"] = "lag not measured recently (database unreachable?)"
        elif self.held or self.failing:
            # the process works and the others keep up; one projection needs an operator
            details["status"] = "degraded"
        return fresh and not self.held and not self.failing, details


async def measure_lag(context: RuntimeContext, names: Sequence[str]) -> dict[str, dict[str, int]]:
    head = await context.store.head_position()
    lag = {}
    for name in names:
        checkpoint = await checkpoint_of(context.pool, name)
        record_lag(name, checkpoint, head)
        lag[name] = {"checkpoint": checkpoint, "head": head, "lag": max(head - checkpoint, 0)}
    return lag


async def measure_holds(context: RuntimeContext, names: Sequence[str]) -> dict[str, Hold]:
    holds = await open_holds(context.pool, names)
    for name in names:
        record_held(name, holds.get(name))
    return holds


async def run_consumers(
    context: RuntimeContext,
    specs: Sequence[ProjectionSpec],
    stop: asyncio.Event,
    health: ConsumerHealth | None = None,
) -> None:
    """Follow the store with every projection in `specs` until `stop` is set. A projection's
    failures never end this: see the module docstring."""
    health = health or ConsumerHealth()
    built: list[Built] = [spec.build(context) for spec in specs]
    try:
        async with asyncio.TaskGroup() as group:
            for spec, projection in zip(specs, built, strict=True):
                subscription = subscription_of(projection)
                subscription.on_failure = _count_failure
                log.info("projection following the store", projection=spec.name)
                group.create_task(
                    _guard(spec.name, lambda s=subscription: s.run(stop), stop, health), name=spec.name
                )
                if spec.companion is not None:
                    name = f"{spec.name} companion"
                    work = lambda c=spec.companion: c(context, stop)  # noqa: E731
                    group.create_task(_guard(name, work, stop, health), name=name)
            group.create_task(_watch(context, [s.name for s in specs], stop, health))
    finally:
        for projection in built:
            await close_built(projection)


def _count_failure(attempt: FailedAttempt) -> None:
    record_failed_attempt(attempt.subscription)


async def _guard(
    name: str,
    work: Callable[[], Coroutine[Any, Any, None]],
    stop: asyncio.Event,
    health: ConsumerHealth,
) -> None:
    """Run a projection's (or its companion's) work until `stop`; when it fails, show it as
    failing and start it again after a back-off, leaving every other task running."""
    delay = RESTART_BACKOFF_SECONDS[0]
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        started = time.monotonic()
        # a restarted task that keeps running a while is no longer shown as failing
        recovered = loop.call_later(HEALTHY_AFTER_SECONDS, health.failing.pop, name, None)
        try:
            await work()
            return
        except Exception as error:
            if time.monotonic() - started >= STABLE_AFTER_SECONDS:
                delay = RESTART_BACKOFF_SECONDS[0]
            error_class, message = describe_error(error)
            health.failing[name] = f"{error_class}: {message}"
            record_task_restart(name)
            # no traceback: its last line would repeat an unredacted message
            frames = traceback.extract_tb(error.__traceback__)
            where = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else "?"
            log.error("consumer task failed; restarting it", task=name, error_class=error_class,
                      error=message, where=where, restart_in_seconds=delay)  # fmt: skip
        finally:
            recovered.cancel()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), delay)
        delay = min(delay * 2, RESTART_BACKOFF_SECONDS[1])


async def _watch(
    context: RuntimeContext, names: list[str], stop: asyncio.Event, health: ConsumerHealth
) -> None:
    while not stop.is_set():
        try:
            health.lag = await measure_lag(context, names)
            holds = await measure_holds(context, names)
            health.held = {name: hold.to_json() for name, hold in holds.items()}
            health.measured_at = time.monotonic()
        except (StoreUnavailable, asyncpg.PostgresError, *CONNECTION_ERRORS) as error:  # it may come back
            log.warning("could not measure projection lag", error=describe_error(error)[1])
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), LAG_INTERVAL_SECONDS)
