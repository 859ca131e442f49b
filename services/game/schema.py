"""The game service's tables, brought up to date with the event store's migrator."""

from __future__ import annotations

from pathlib import Path

import asyncpg

from event_store import migrate
from event_store.migrator import load_migrations

MIGRATIONS = Path(__file__).with_name("migrations")


async def prepare_database(pool: asyncpg.Pool) -> None:
    """The event store's schema, then the game service's own tables (component ``game``)."""
    async with pool.acquire() as connection:
        await migrate(connection)
        await migrate(connection, load_migrations(MIGRATIONS), component="game")
