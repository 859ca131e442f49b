from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest

from event_store import PostgresEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.service import GameService
from services.game.fairness.vault import SeedVault
from services.game.schema import prepare_database


@pytest.fixture
async def game_store(pg_pool: asyncpg.Pool) -> AsyncIterator[PostgresEventStore]:
    await prepare_database(pg_pool)
    yield PostgresEventStore(pg_pool, mapper=GAME_MAPPER)


@pytest.fixture
async def game_service(game_store: PostgresEventStore, pg_pool: asyncpg.Pool) -> GameService:
    return GameService(game_store, SeedVault(pg_pool))
