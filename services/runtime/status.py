"""What `bang-league status` reports: each projection's lag and hold, each Celery queue's depth."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import asyncpg
import redis

from event_store import checkpoint_of
from event_store.subscription import Hold, open_holds


@dataclass(frozen=True, slots=True)
class ProjectionStatus:
    name: str
    checkpoint: int
    head: int
    registered: bool = True
    held: Hold | None = None
    """Where it is held, at an event it could not apply (`bang-league projections`)."""

    @property
    def lag(self) -> int:
        return max(self.head - self.checkpoint, 0)


@dataclass(frozen=True, slots=True)
class QueueStatus:
    name: str
    depth: int


@dataclass(frozen=True, slots=True)
class Status:
    head: int
    projections: list[ProjectionStatus]
    queues: list[QueueStatus]

    def to_json(self) -> dict[str, object]:
        return {
            "head": self.head,
            "projections": [
                {
                    "name": p.name,
                    "checkpoint": p.checkpoint,
                    "head": p.head,
                    "lag": p.lag,
                    "registered": p.registered,
                    "held": None if p.held is None else p.held.to_json(),
                }
                for p in self.projections
            ],
            "queues": [asdict(q) for q in self.queues],
        }


async def projection_status(pool: asyncpg.Pool, names: Sequence[str]) -> tuple[int, list[ProjectionStatus]]:
    """Head, checkpoints and holds; checkpoints of names not registered (a retired projection,
    a process manager) are listed too, flagged, since their lag is real work someone owes."""
    head = await pool.fetchval("SELECT coalesce(max(position), 0) FROM events")
    holds = await open_holds(pool)
    rows = [
        ProjectionStatus(name, await checkpoint_of(pool, name), head, held=holds.get(name)) for name in names
    ]
    others = await pool.fetch(
        "SELECT name, position FROM checkpoints WHERE NOT (name = ANY($1::text[]))", list(names)
    )
    rows += [
        ProjectionStatus(r["name"], r["position"], head, registered=False, held=holds.get(r["name"]))
        for r in others
    ]
    return head, rows


def queue_depths(redis_url: str, queues: Sequence[str]) -> list[QueueStatus]:
    """Messages waiting in each Celery queue: the Redis transport keeps a queue as a list."""
    client = redis.Redis.from_url(redis_url, socket_timeout=3)
    try:
        return [QueueStatus(name, int(client.llen(name))) for name in queues]  # type: ignore[arg-type]
    finally:
        client.close()
