"""The clubs' tables (component ``clubs``); found by the runtime's ``prepare_all`` like every
service's ``schema.py``. They refer to the accounts' tables, so those come first."""

from __future__ import annotations

from pathlib import Path

import asyncpg

from event_store import migrate_component
from services.accounts.schema import prepare_database as prepare_accounts

MIGRATIONS = Path(__file__).with_name("migrations")


async def prepare_database(pool: asyncpg.Pool) -> None:
    await prepare_accounts(pool)  # idempotent; the foreign keys need it
    await migrate_component(pool, MIGRATIONS, "clubs")
