"""What the browser tests look at: a short bot season in a league, with the read models caught up.

One club of ten members, a season, a tournament of two rounds at tables of five, every game
played by bots on the game server; then the standings projection and the ratings consumer
run until idle, so every page has data.
"""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg

from event_store import PostgresEventStore
from services.game.application.service import GameService
from services.game.fairness.vault import SeedVault
from services.game.schema import prepare_database as prepare_game_tables
from services.league.bot_league import play_bot_round
from services.league.commands import (
    EnrollPlayer,
    FoundClub,
    FoundLeague,
    OpenSeason,
    OpenTournament,
    RegisterPlayer,
)
from services.league.read_model import prepare_database as prepare_league_tables
from services.league.service import LeagueService
from services.league.standings import StandingsProjection
from services.league.vocabulary import SeatingPolicy
from services.ratings.consumer import ratings_subscription
from services.ratings.store import prepare_database as prepare_ratings_tables

CLUB, LEAGUE, SEASON, TOURNAMENT = "gulch", "saloon", "s1", "nights"
MEMBERS = tuple(f"m{i:02d}" for i in range(1, 11))
NAMES = {m: f"Cowpoke {m[1:]}" for m in MEMBERS}
ROUNDS = 3
SEED = "browser-season"
CARE = {member: 0.45 + 0.05 * i for i, member in enumerate(MEMBERS)}
"""Stronger bots further down the list, so the tables have some shape."""


@dataclass(frozen=True, slots=True)
class Season:
    league_id: str
    season_id: str
    tournament_id: str
    members: tuple[str, ...]
    games: tuple[str, ...]


async def seed_season(pool: asyncpg.Pool, redis_url: str) -> Season:
    await prepare_game_tables(pool)
    await prepare_league_tables(pool)
    await prepare_ratings_tables(pool)
    store = PostgresEventStore(pool)
    league = LeagueService(store)
    games = GameService(store, SeedVault(pool))
    await _found_league(league)
    projection = StandingsProjection(store, redis_url=redis_url)
    played: list[str] = []
    try:
        for number in range(1, ROUNDS + 1):
            report = await play_bot_round(
                league, games, LEAGUE, TOURNAMENT, number, seed=SEED, care=CARE, projection=projection
            )
            played.extend(report.games)
        await projection.run_until_idle()
    finally:
        await projection.close()
    await ratings_subscription(store).run_until_idle()
    return Season(LEAGUE, SEASON, TOURNAMENT, MEMBERS, tuple(played))


async def _found_league(league: LeagueService) -> None:
    await league.execute(FoundClub(club_id=CLUB, name="Dry Gulch Saloon"), command_id="found-club")
    for member in MEMBERS:
        await league.execute(
            RegisterPlayer(club_id=CLUB, member_id=member, name=NAMES[member]),
            command_id=f"register/{member}",
        )
    await league.execute(
        FoundLeague(
            league_id=LEAGUE,
            club_id=CLUB,
            name="Saloon League",
            seating=SeatingPolicy(allowed_sizes=(5,), preferred_size=5),
        ),
        command_id="found-league",
    )
    await league.execute(
        OpenSeason(league_id=LEAGUE, season_id=SEASON, name="Season One"), command_id="season"
    )
    for member in MEMBERS:
        await league.execute(
            EnrollPlayer(league_id=LEAGUE, season_id=SEASON, member_id=member), command_id=f"enrol/{member}"
        )
    await league.execute(
        OpenTournament(league_id=LEAGUE, season_id=SEASON, tournament_id=TOURNAMENT, name="League nights"),
        command_id="tournament",
    )
