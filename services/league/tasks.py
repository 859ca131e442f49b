"""The league's Celery tasks. Each is idempotent: its command ids derive from its arguments,
so a task delivered twice (or re-run after a worker died) changes nothing the second time.

    league.seat_round         seat a round (a large tournament's seating is CPU work)
    league.play_bot_round     seat, create, play and score a round of bot games
    league.season_rollover    close a season and open the next with the same players
    league.rebuild_standings  drop the standings read model and replay it from position 0
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import asyncpg
from celery import shared_task

from event_store import PostgresEventStore, create_pool
from services.game.application.service import GameService
from services.game.fairness.vault import SeedVault
from services.league import read_model
from services.league.bot_league import play_bot_round as play_round
from services.league.bot_league import seat_next_round
from services.league.commands import CloseSeason, EnrollPlayer, OpenSeason
from services.league.errors import AlreadyExists, SeasonAlreadyClosed
from services.league.service import LeagueService, derived_command_id
from services.league.standings import StandingsProjection

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class _Resources:
    pool: asyncpg.Pool
    store: PostgresEventStore
    league: LeagueService
    redis_url: str


@asynccontextmanager
async def _resources() -> AsyncIterator[_Resources]:
    # Imported here: the worker app resolves PostgreSQL and Redis, and only a running task
    # needs them (a process that merely imports the task names must not start servers).
    from services.worker.app import REDIS_URL, resolve_database_url

    pool = await create_pool(resolve_database_url(), min_size=1, max_size=4)
    try:
        store = PostgresEventStore(pool)
        yield _Resources(pool, store, LeagueService(store), REDIS_URL)
    finally:
        await pool.close()


def _run(work: Callable[[_Resources], Awaitable[T]]) -> T:
    async def main() -> T:
        async with _resources() as resources:
            return await work(resources)

    return asyncio.run(main())


@shared_task(name="league.seat_round")
def seat_round(
    league_id: str, tournament_id: str, round_number: int, seed: str, entrants: list[str] | None = None
) -> dict[str, Any]:
    async def work(r: _Resources) -> dict[str, Any]:
        seated = await seat_next_round(
            r.league,
            league_id,
            tournament_id,
            round_number,
            seed=seed,
            entrants=None if entrants is None else tuple(entrants),
        )
        return {
            "round": seated.round,
            "tables": [
                {"table": t.table, "members": list(t.members), "sheriff": t.sheriff} for t in seated.tables
            ],
            "byes": list(seated.byes),
        }

    return _run(work)


@shared_task(name="league.play_bot_round")
def play_bot_round(
    league_id: str, tournament_id: str, round_number: int, seed: str, care: dict[str, float] | None = None
) -> dict[str, Any]:
    async def work(r: _Resources) -> dict[str, Any]:
        projection = StandingsProjection(r.store, redis_url=r.redis_url)
        try:
            games = GameService(r.store, SeedVault(r.pool))
            report = await play_round(
                r.league,
                games,
                league_id,
                tournament_id,
                round_number,
                seed=seed,
                care=care,
                projection=projection,
            )
        finally:
            await projection.close()
        return {
            "round": report.seated.round,
            "games": list(report.games),
            "winning_sides": [r.winning_side for r in report.results],
            "moves": report.moves,
        }

    return _run(work)


@shared_task(name="league.season_rollover")
def season_rollover(league_id: str, season_id: str, next_season_id: str, next_name: str) -> dict[str, Any]:
    """Close ``season_id`` (if still open) and open ``next_season_id`` with its players."""

    async def work(r: _Resources) -> dict[str, Any]:
        def command_id(step: str, *keys: object) -> str:
            return derived_command_id(f"rollover/{step}", [league_id, season_id, next_season_id, *keys])

        state = await r.league.load_league(league_id)
        players = list(state.season(season_id).entrants)
        with _already_done(SeasonAlreadyClosed):  # closed by hand earlier: nothing to do
            await r.league.execute(
                CloseSeason(league_id=league_id, season_id=season_id), command_id=command_id("close")
            )
        with _already_done(AlreadyExists):
            await r.league.execute(
                OpenSeason(league_id=league_id, season_id=next_season_id, name=next_name),
                command_id=command_id("open"),
            )
        for member in players:
            with _already_done(AlreadyExists):
                await r.league.execute(
                    EnrollPlayer(league_id=league_id, season_id=next_season_id, member_id=member),
                    command_id=command_id("enrol", member),
                )
        return {"closed": season_id, "opened": next_season_id, "players": players}

    return _run(work)


@shared_task(name="league.rebuild_standings")
def rebuild_standings() -> dict[str, Any]:
    """Throw the read model away and replay every league and game event into it."""

    async def work(r: _Resources) -> dict[str, Any]:
        async with r.pool.acquire() as connection:
            await read_model.reset(connection)
        projection = StandingsProjection(r.store, redis_url=r.redis_url)
        try:
            replayed = await projection.run_until_idle()
        finally:
            await projection.close()
        return {"replayed": replayed}

    return _run(work)


def _already_done(error: type[Exception]) -> contextlib.suppress:
    """Swallow ``error``: the step it reports was done before (by another command id)."""
    return contextlib.suppress(error)


__all__ = ["play_bot_round", "rebuild_standings", "season_rollover", "seat_round"]
