"""What the browser tests look at: a short bot season in a league, with the read models caught up.

One club of ten members, a season, a tournament of three rounds at tables of five, every game
played by bots on the game server; then the standings projection, the ratings consumer and
the directory run until idle, so every page has data. Eight members are accounts (a member id
IS an account id, unreadable: the pages must show the display name); two are old data, known
only by the name the league club registered them under.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import asyncpg

from event_store import PostgresEventStore
from services.accounts.schema import prepare_database as prepare_accounts_tables
from services.accounts.service import AccountService
from services.accounts.settings import AccountSettings
from services.directory.projection import directory_subscription
from services.directory.projection import prepare_database as prepare_directory_tables
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
from services.league.vocabulary import PUBLIC, SeatingPolicy
from services.ratings.consumer import ratings_subscription
from services.ratings.store import prepare_database as prepare_ratings_tables

CLUB, LEAGUE, SEASON, TOURNAMENT = "gulch", "saloon", "s1", "nights"
ACCOUNT_NAMES = (
    "Calamity Jane", "Doc Holliday", "Annie Oakley", "Wild Bill", "Belle Starr", "Black Bart",
    "Pearl Hart", "Jesse James",
)  # fmt: skip
OLD_MEMBERS = {"m09": "Cowpoke Nine", "m10": "Cowpoke Ten"}
"""Members without an account (old data): the league club's registered names."""
ROUNDS = 3
SEED = "browser-season"


@dataclass(frozen=True, slots=True)
class Season:
    league_id: str
    season_id: str
    tournament_id: str
    members: tuple[str, ...]
    games: tuple[str, ...]
    names: Mapping[str, str]
    """Member id → the display name every page must show."""


async def seed_season(pool: asyncpg.Pool, redis_url: str) -> Season:
    await prepare_game_tables(pool)
    await prepare_league_tables(pool)
    await prepare_ratings_tables(pool)
    await prepare_accounts_tables(pool)
    await prepare_directory_tables(pool)
    store = PostgresEventStore(pool)
    league = LeagueService(store)
    games = GameService(store, SeedVault(pool))
    names = await _accounts(pool) | OLD_MEMBERS
    members = tuple(names)
    # stronger bots further down the list, so the tables have some shape
    care = {member: 0.45 + 0.05 * i for i, member in enumerate(members)}
    await _found_league(league, members)
    projection = StandingsProjection(store, redis_url=redis_url)
    played: list[str] = []
    try:
        for number in range(1, ROUNDS + 1):
            report = await play_bot_round(
                league, games, LEAGUE, TOURNAMENT, number, seed=SEED, care=care, projection=projection
            )
            played.extend(report.games)
        await projection.run_until_idle()
    finally:
        await projection.close()
    await ratings_subscription(store).run_until_idle()
    await directory_subscription(store).run_until_idle()
    return Season(LEAGUE, SEASON, TOURNAMENT, members, tuple(played), names)


async def _accounts(pool: asyncpg.Pool) -> dict[str, str]:
    """Members registered by name, as a club registers them: unclaimed accounts."""
    accounts = AccountService(
        pool, AccountSettings(argon2_time_cost=1, argon2_memory_kib=8 * 1024, argon2_parallelism=1)
    )
    named: dict[str, str] = {}
    async with pool.acquire() as connection, connection.transaction():
        for name in ACCOUNT_NAMES:
            account_id, _ = await accounts.register_unclaimed(
                connection, name, login=None, registered_by="browser-seed"
            )
            named[account_id] = name
    return named


async def _found_league(league: LeagueService, members: tuple[str, ...]) -> None:
    await league.execute(FoundClub(club_id=CLUB, name="Dry Gulch Saloon"), command_id="found-club")
    for member in members:
        # an account's club registration carries a stale name: the account's name must win
        name = OLD_MEMBERS.get(member, f"Cowpoke {member[:6]}")
        await league.execute(
            RegisterPlayer(club_id=CLUB, member_id=member, name=name),
            command_id=f"register/{member}",
        )
    await league.execute(
        FoundLeague(
            league_id=LEAGUE,
            club_id=CLUB,
            name="Saloon League",
            seating=SeatingPolicy(allowed_sizes=(5,), preferred_size=5),
            visibility=PUBLIC,  # its pages are read signed out
        ),
        command_id="found-league",
    )
    await league.execute(
        OpenSeason(league_id=LEAGUE, season_id=SEASON, name="Season One"), command_id="season"
    )
    for member in members:
        await league.execute(
            EnrollPlayer(league_id=LEAGUE, season_id=SEASON, member_id=member), command_id=f"enrol/{member}"
        )
    await league.execute(
        OpenTournament(league_id=LEAGUE, season_id=SEASON, tournament_id=TOURNAMENT, name="League nights"),
        command_id="tournament",
    )
