from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest

from event_store import PostgresEventStore
from services.game.application.service import GameService
from services.game.fairness.vault import SeedVault
from services.game.schema import prepare_database as prepare_game_tables
from services.league.read_model import prepare_database as prepare_league_tables
from services.league.service import LeagueService
from services.league.standings import StandingsProjection


@pytest.fixture
async def store(pg_pool: asyncpg.Pool) -> PostgresEventStore:
    await prepare_game_tables(pg_pool)
    await prepare_league_tables(pg_pool)
    return PostgresEventStore(pg_pool)


@pytest.fixture
def league(store: PostgresEventStore) -> LeagueService:
    return LeagueService(store)


@pytest.fixture
def games(store: PostgresEventStore, pg_pool: asyncpg.Pool) -> GameService:
    return GameService(store, SeedVault(pg_pool))


@pytest.fixture
async def projection(store: PostgresEventStore, redis_url: str) -> AsyncIterator[StandingsProjection]:
    running = StandingsProjection(store, redis_url=redis_url)
    yield running
    await running.close()
