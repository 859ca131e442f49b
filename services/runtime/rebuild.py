"""Rebuild a projection: throw its read model and checkpoint away, replay from position 0.

The reset and the checkpoint's deletion commit together, so there is never a read model
without a matching position. Consumers of the same projection may keep running meanwhile:
they take turns with the rebuild on the checkpoint row, and whoever holds it applies the next
batch, so every event is still applied once.
"""

from __future__ import annotations

from collections.abc import Callable

from event_store.subscription import release_holds
from services.runtime.context import RuntimeContext
from services.runtime.projections import ProjectionSpec, close_built, subscription_of

Progress = Callable[[int, int], None]
"""Called with (checkpoint, head) after each batch."""


async def reset_projection(context: RuntimeContext, spec: ProjectionSpec) -> None:
    async with context.pool.acquire() as connection, connection.transaction():
        await spec.reset(connection)
        await connection.execute("DELETE FROM checkpoints WHERE name = $1", spec.name)
        # starting over from 0 voids a hold: the replay meets the event again, fixed or not
        await release_holds(connection, spec.name, by="rebuild", reason="rebuilt from position 0")


async def rebuild(context: RuntimeContext, spec: ProjectionSpec, progress: Progress | None = None) -> int:
    """Reset `spec` and replay everything into it; the number of events handled."""
    if spec.prepare is not None:
        await spec.prepare(context.pool)
    await reset_projection(context, spec)
    built = spec.build(context)
    subscription = subscription_of(built)
    handled = 0
    try:
        head = await context.store.head_position()
        while batch := await subscription.handle_next_batch():
            handled += batch
            if progress is not None:
                progress(await subscription.position(), head)
    finally:
        await close_built(built)
    return handled
