"""Names in the league's GraphQL answers (issue 11: "Names appear wherever a person is shown"):
every member id comes with a display name, from the member's account, else the name the league
club registered them under; the ids stay for links; no hidden role rides along with a name."""

from __future__ import annotations

import json
import re
from typing import Any

import asyncpg
import pytest
import strawberry

from event_store import PostgresEventStore
from services.accounts.schema import prepare_database as prepare_accounts_tables
from services.accounts.service import AccountService
from services.accounts.settings import AccountSettings
from services.directory.projection import directory_subscription
from services.directory.projection import prepare_database as prepare_directory_tables
from services.game.application.lifecycle import GameContext, GameMode
from services.game.application.service import Actor, ActorKind, GameService, Member, NewGame
from services.game.application.session import GameStatus
from services.league.bot_league import play_bot_round, seat_next_round, table_game_id
from services.league.graphql_types import LeagueQuery
from services.league.service import LeagueService
from services.league.standings import StandingsProjection

from .league_setup import LEAGUE, SEASON, TOURNAMENT, found_league

SCHEMA = strawberry.Schema(query=LeagueQuery)

NAMES = (
    "Calamity Jane", "Doc Holliday", "Annie Oakley", "Wild Bill", "Belle Starr", "Black Bart",
    "Pearl Hart", "Jesse James",
)  # fmt: skip
UNCLAIMED = ("m08", "m09", "m10", "m11")
"""Members of old data: no account, only the league club's registered name (``M08``…)."""

HIDDEN = re.compile(r"\b(renegade|outlaw|deputy)\b", re.IGNORECASE)

QUERY = """
query ($league: ID!, $season: ID, $tournament: ID!, $member: ID!) {
  leagueStandings(leagueId: $league, seasonId: $season) { lines { memberId displayName forfeits } }
  leagueTournament(leagueId: $league, tournamentId: $tournament) {
    rounds {
      round byes byeNames
      tables { table members memberNames sheriff sheriffName gameId winningSide }
    }
  }
  leagueHeadToHead(leagueId: $league, memberId: $member) { memberId displayName opponentId opponentName }
}
"""


@pytest.fixture
async def members(pg_pool: asyncpg.Pool, store: PostgresEventStore) -> dict[str, str]:
    """Member id → the name expected: eight accounts, four members known only to the league."""
    await prepare_accounts_tables(pg_pool)
    await prepare_directory_tables(pg_pool)
    accounts = AccountService(
        pg_pool, AccountSettings(argon2_time_cost=1, argon2_memory_kib=8 * 1024, argon2_parallelism=1)
    )
    named: dict[str, str] = {}
    async with pg_pool.acquire() as connection, connection.transaction():
        for name in NAMES:
            account_id, _ = await accounts.register_unclaimed(
                connection, name, login=None, registered_by="organiser"
            )
            named[account_id] = name
    return named | {m: m.upper() for m in UNCLAIMED}


async def ask(pool: asyncpg.Pool, member: str) -> dict[str, Any]:
    result = await SCHEMA.execute(
        QUERY,
        {"league": LEAGUE, "season": SEASON, "tournament": TOURNAMENT, "member": member},
        context_value={"pool": pool},
    )
    assert result.errors is None, result.errors
    assert result.data is not None
    return result.data


async def test_every_member_id_comes_with_the_account_name_or_the_registered_one(
    league: LeagueService,
    games: GameService,
    projection: StandingsProjection,
    store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    members: dict[str, str],
) -> None:
    # the league club registers each under ``id.upper()``: an account's name must win over it
    await found_league(league, tuple(members))
    care = {m: 0.6 for m in members}
    await play_bot_round(league, games, LEAGUE, TOURNAMENT, 1, seed="names", care=care, projection=projection)
    await directory_subscription(store).run_until_idle()

    # the seating is drawn from the account ids, which are new each run: ask for a member who sat
    # at a table (a bye has no head-to-head record)
    seated = (await ask(pg_pool, next(iter(members))))["leagueTournament"]["rounds"][0]["tables"][0]
    some_account = seated["members"][0]
    data = await ask(pg_pool, some_account)

    lines = data["leagueStandings"]["lines"]
    assert {line["memberId"] for line in lines} == set(members)
    assert all(line["displayName"] == members[line["memberId"]] for line in lines)

    [first] = data["leagueTournament"]["rounds"]
    assert len(first["tables"]) == 2 and len(first["byes"]) == 2
    assert first["byeNames"] == [members[m] for m in first["byes"]]
    for table in first["tables"]:
        assert table["memberNames"] == [members[m] for m in table["members"]]
        assert table["sheriffName"] == members[table["sheriff"]]

    records = data["leagueHeadToHead"]
    assert records, "the member played a table with others"
    for record in records:
        assert record["memberId"] == some_account and record["displayName"] == members[some_account]
        assert record["opponentName"] == members[record["opponentId"]]

    # nothing shown to a person is a bare id
    shown = [line["displayName"] for line in lines] + [t["sheriffName"] for t in first["tables"]]
    assert not set(shown) & set(members)


async def test_names_of_a_round_in_play_carry_no_hidden_role(
    league: LeagueService,
    games: GameService,
    projection: StandingsProjection,
    store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    members: dict[str, str],
) -> None:
    await found_league(league, tuple(members))
    await projection.run_until_idle()
    seated = await seat_next_round(league, LEAGUE, TOURNAMENT, 1, seed="names")
    table = seated.tables[0]
    game_id = table_game_id(LEAGUE, TOURNAMENT, 1, table.table)
    await games.create_game(
        NewGame(
            mode=GameMode.ONLINE,
            player_count=len(table.members),
            members=tuple(Member(member_id=m, name=members[m]) for m in table.members),
            sheriff_member=table.sheriff,
            context=GameContext(
                league_id=LEAGUE, season_id=SEASON, tournament_id=TOURNAMENT, round=1, table=table.table
            ),
            game_id=game_id,
        ),
        command_id=f"create/{game_id}",
        actor=Actor(kind=ActorKind.ORGANISER, id=f"league:{LEAGUE}"),
    )
    session = await games.load(game_id)
    assert session.status is GameStatus.ONGOING, "the game is dealt: its roles exist and are hidden"
    await projection.run_until_idle()
    await directory_subscription(store).run_until_idle()

    data = await ask(pg_pool, table.members[0])
    [first] = data["leagueTournament"]["rounds"]
    [shown] = [t for t in first["tables"] if t["table"] == table.table]
    assert shown["memberNames"] == [members[m] for m in table.members]
    assert shown["sheriffName"] == members[table.sheriff]
    assert shown["winningSide"] is None
    # the Sheriff is public; no other role appears anywhere in the answer
    assert HIDDEN.search(json.dumps(data)) is None, json.dumps(data)
