"""The API app with accounts and clubs on this test's own PostgreSQL database, the game and league
services on the app's own pool (games are played through them, as the league tests do), and
the directory projection caught up by hand before each read."""

from __future__ import annotations

import asyncpg
from litestar import Litestar

from event_store import PostgresEventStore
from services.api.app import Resources
from services.directory.projection import directory_subscription
from services.game.application.service import GameService
from services.league.service import LeagueService
from tests.integration.clubs.conftest import account_settings, api_settings, app, client

__all__ = ["account_settings", "api_settings", "app", "client"]


def pool_of(app: Litestar) -> asyncpg.Pool:
    resources: Resources = app.state.resources
    return resources.pool


def games_of(app: Litestar) -> GameService:
    resources: Resources = app.state.resources
    return resources.gateway.service


def league_of(app: Litestar) -> LeagueService:
    return LeagueService(PostgresEventStore(pool_of(app)))


async def catch_up(app: Litestar) -> None:
    """Run the directory projection until it has read every event."""
    await directory_subscription(PostgresEventStore(pool_of(app))).run_until_idle()
