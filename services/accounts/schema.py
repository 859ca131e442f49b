"""The accounts' tables, brought up to date with the event store's migrator; found by the
runtime's ``prepare_all`` (services/<svc>/schema.py), so every process creates them at start-up."""

from __future__ import annotations

from pathlib import Path

import asyncpg

from event_store import migrate_component

MIGRATIONS = Path(__file__).with_name("migrations")


async def prepare_database(pool: asyncpg.Pool) -> None:
    """The event store's schema, then the accounts' own tables (component ``accounts``)."""
    await migrate_component(pool, MIGRATIONS, "accounts")
