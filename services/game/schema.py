"""The game service's tables (the seed vault, access tokens, deadlines), brought up to date with
the event store's migrator; found by the runtime's ``prepare_all`` (services/<svc>/schema.py)."""

from __future__ import annotations

from pathlib import Path

import asyncpg

from event_store import migrate_component

MIGRATIONS = Path(__file__).with_name("migrations")


async def prepare_database(pool: asyncpg.Pool) -> None:
    """The event store's schema, then the game service's own tables (component ``game``)."""
    await migrate_component(pool, MIGRATIONS, "game")
