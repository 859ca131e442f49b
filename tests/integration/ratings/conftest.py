from __future__ import annotations

import asyncpg
import pytest

from event_store import PostgresEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.service import GameService
from services.game.fairness.vault import SeedVault
from services.game.schema import prepare_database as prepare_game_tables
from services.ratings.store import prepare_database as prepare_ratings_tables
from tests.integration.ratings.games import PlannedGame, plan_games


@pytest.fixture
async def game_store(pg_pool: asyncpg.Pool) -> PostgresEventStore:
    await prepare_game_tables(pg_pool)
    await prepare_ratings_tables(pg_pool)
    return PostgresEventStore(pg_pool, mapper=GAME_MAPPER)


@pytest.fixture
def game_service(game_store: PostgresEventStore, pg_pool: asyncpg.Pool) -> GameService:
    return GameService(game_store, SeedVault(pg_pool))


@pytest.fixture(scope="session")
def planned_games() -> list[PlannedGame]:
    """Played once per session (engine only); each test enters them into its own database."""
    return plan_games(12, seed=5)
