"""Prometheus metrics: what every bang-league process counts, and how it is exposed.

Each process has its own registry (the default one, with process and GC collectors); the API
serves it at `/metrics`, consumers and workers on their `--health-port`. Prometheus adds up
the replicas, so every metric here is a per-process count or a per-process reading.

* `bang_commands_total{command,outcome}`: commands handled by the API (see `count_command`).
* `bang_event_appends_total{category,outcome}` and `bang_event_append_seconds{category}`:
  appends through a `MeteredEventStore`.
* `bang_event_store_head_position`, `bang_projection_checkpoint{projection}` and
  `bang_projection_lag_events{projection}` (head − checkpoint): set by consumers.
* `bang_projection_held{projection}` (1 while held at an event it could not apply),
  `bang_projection_failures_total{projection}` (failed attempts at an event) and
  `bang_consumer_task_restarts_total{task}`: set by consumers.
* `bang_celery_tasks_total{task,outcome}`: Celery task outcomes, from the worker's signals.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import asyncpg
import msgspec
from litestar import Response, get
from litestar.handlers import HTTPRouteHandler
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, Counter, Gauge, Histogram, generate_latest
from prometheus_client.registry import CollectorRegistry

from event_store import (
    ConcurrencyError,
    DuplicateEventConflict,
    EventMetadata,
    ExpectedVersion,
    NewEvent,
    PostgresEventStore,
)
from event_store.records import AppendResult
from event_store.streams import category_of

COMMANDS = Counter("bang_commands", "Commands handled, by command kind and outcome.", ["command", "outcome"])
APPENDS = Counter(
    "bang_event_appends", "Event store appends, by stream category and outcome.", ["category", "outcome"]
)
APPEND_SECONDS = Histogram(
    "bang_event_append_seconds",
    "Latency of one event store append (one batch), by stream category.",
    ["category"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
HEAD_POSITION = Gauge("bang_event_store_head_position", "The newest global position in the event store.")
CHECKPOINT = Gauge("bang_projection_checkpoint", "The last position a projection handled.", ["projection"])
LAG = Gauge(
    "bang_projection_lag_events",
    "Events a projection is behind the head (head − checkpoint).",
    ["projection"],
)
HELD = Gauge(
    "bang_projection_held",
    "1 while a projection is held at an event it could not apply (bang-league projections), else 0.",
    ["projection"],
)
HELD_POSITION = Gauge(
    "bang_projection_held_position",
    "The position a held projection is held at (0: not held).",
    ["projection"],
)
FAILURES = Counter(
    "bang_projection_failures", "Failed attempts of a projection at an event, by projection.", ["projection"]
)
TASK_RESTARTS = Counter(
    "bang_consumer_task_restarts", "Consumer tasks restarted in-process after a failure.", ["task"]
)
TASKS = Counter("bang_celery_tasks", "Celery task outcomes, by task name.", ["task", "outcome"])


def count_command(command: str, outcome: str) -> None:
    """Count one handled command: `outcome` is a small fixed vocabulary the API chooses
    (`ok`, `duplicate`, `rejected`, `conflict`, `error`), never free text."""
    COMMANDS.labels(command=command, outcome=outcome).inc()


def record_lag(projection: str, checkpoint: int, head: int) -> None:
    HEAD_POSITION.set(head)
    CHECKPOINT.labels(projection=projection).set(checkpoint)
    LAG.labels(projection=projection).set(max(head - checkpoint, 0))


def record_held(projection: str, hold: Any | None) -> None:
    """`hold`: the projection's open `event_store.subscription.Hold`, or None."""
    HELD.labels(projection=projection).set(0 if hold is None else 1)
    HELD_POSITION.labels(projection=projection).set(0 if hold is None else hold.position)


def record_failed_attempt(projection: str) -> None:
    FAILURES.labels(projection=projection).inc()


def record_task_restart(task: str) -> None:
    TASK_RESTARTS.labels(task=task).inc()


class MeteredEventStore(PostgresEventStore):
    """The event store, counting and timing every append. A drop-in replacement: build it
    exactly like `PostgresEventStore` (or `MeteredEventStore.open(dsn)`)."""

    async def append(
        self,
        stream: str,
        events: Sequence[NewEvent | msgspec.Struct],
        *,
        expected_version: ExpectedVersion,
        metadata: EventMetadata | None = None,
        connection: asyncpg.Connection | None = None,
    ) -> AppendResult:
        category = category_of(stream)
        started = time.perf_counter()
        outcome = "error"
        try:
            result = await super().append(
                stream, events, expected_version=expected_version, metadata=metadata, connection=connection
            )
            outcome = "duplicate" if result.duplicate else "appended"
            return result
        except ConcurrencyError:
            outcome = "conflict"
            raise
        except DuplicateEventConflict:
            outcome = "id_conflict"
            raise
        finally:
            APPEND_SECONDS.labels(category=category).observe(time.perf_counter() - started)
            APPENDS.labels(category=category, outcome=outcome).inc()


# --- Celery ---------------------------------------------------------------------------------

_celery_connected = False


def connect_celery_signals() -> None:
    """Count task outcomes in this process (idempotent). Signals fire in the process that
    runs the task, so the worker's pool must be `threads` or `solo` for its `/metrics` to see
    them (a prefork child's counters die with the child)."""
    global _celery_connected
    if _celery_connected:
        return
    from celery import signals

    def outcome(name: str) -> Any:
        def handler(sender: Any = None, **_: Any) -> None:
            task = getattr(sender, "name", None) or str(sender)
            TASKS.labels(task=task, outcome=name).inc()

        return handler

    # weak=False: the closures above have no other reference and would be collected
    signals.task_success.connect(outcome("success"), weak=False)
    signals.task_failure.connect(outcome("failure"), weak=False)
    signals.task_retry.connect(outcome("retry"), weak=False)
    _celery_connected = True


# --- exposing -------------------------------------------------------------------------------


def render_metrics(registry: CollectorRegistry = REGISTRY) -> tuple[bytes, str]:
    """The exposition text and its content type."""
    return generate_latest(registry), CONTENT_TYPE_LATEST


def metrics_app(registry: CollectorRegistry = REGISTRY) -> Any:
    """A plain ASGI app serving the metrics (mount it at `/metrics`)."""
    from prometheus_client import make_asgi_app

    return make_asgi_app(registry)


def metrics_handler() -> HTTPRouteHandler:
    """A litestar route handler `GET /metrics`, for the API's `route_handlers`."""

    @get("/metrics", operation_id="metrics", include_in_schema=False, sync_to_thread=False)
    def metrics() -> Response[bytes]:
        body, content_type = render_metrics()
        return Response(body, media_type=content_type)

    return metrics
