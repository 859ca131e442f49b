"""The league's GraphQL types on a small schema of their own, against a real read model."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest
import redis.asyncio as aioredis
import strawberry

from services.game.application.service import GameService
from services.league import read_model
from services.league.bot_league import play_bot_round
from services.league.graphql_types import LeagueQuery, LeagueSubscription
from services.league.service import LeagueService
from services.league.standings import StandingsProjection

from .league_setup import CARE, LEAGUE, MEMBERS, SEASON, TOURNAMENT, found_league

SCHEMA = strawberry.Schema(query=LeagueQuery, subscription=LeagueSubscription)

STANDINGS = """
query ($league: ID!, $season: ID, $tournament: ID) {
  leagueStandings(leagueId: $league, seasonId: $season, tournamentId: $tournament) {
    leagueId seasonId position
    lines { rank memberId points games wins renegadeWins survivals sheriffGames byes buchholz headToHead }
  }
}
"""


@pytest.fixture
async def redis_client(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.from_url(redis_url)
    yield client
    await client.aclose()


async def play_round(
    league: LeagueService, games: GameService, projection: StandingsProjection, number: int
) -> None:
    await play_bot_round(
        league, games, LEAGUE, TOURNAMENT, number, seed="gql", care=CARE, projection=projection
    )


async def test_standings_tournament_and_head_to_head_queries(
    league: LeagueService, games: GameService, projection: StandingsProjection, pg_pool: asyncpg.Pool
) -> None:
    await found_league(league)
    await play_round(league, games, projection, 1)
    context = {"pool": pg_pool}

    result = await SCHEMA.execute(STANDINGS, {"league": LEAGUE, "season": SEASON}, context_value=context)
    assert result.errors is None and result.data is not None
    standings = result.data["leagueStandings"]
    assert standings["position"] == await projection.position()
    expected = await read_model.standings(pg_pool, LEAGUE, SEASON)
    assert [line["memberId"] for line in standings["lines"]] == [s.member_id for s in expected]
    assert [line["points"] for line in standings["lines"]] == [s.points for s in expected]
    assert sorted(line["memberId"] for line in standings["lines"]) == list(MEMBERS)

    by_tournament = await SCHEMA.execute(
        STANDINGS, {"league": LEAGUE, "tournament": TOURNAMENT}, context_value=context
    )
    assert by_tournament.data is not None
    assert {line["memberId"] for line in by_tournament.data["leagueStandings"]["lines"]} == set(MEMBERS)

    tournament = await SCHEMA.execute(
        """
        query ($league: ID!, $tournament: ID!) {
          leagueTournament(leagueId: $league, tournamentId: $tournament) {
            seasonId name gameType rounds { round byes tables { table members sheriff gameId winningSide } }
          }
          missing: leagueTournament(leagueId: $league, tournamentId: "nope") { name }
        }
        """,
        {"league": LEAGUE, "tournament": TOURNAMENT},
        context_value=context,
    )
    assert tournament.errors is None and tournament.data is not None
    assert tournament.data["missing"] is None
    assert tournament.data["leagueTournament"]["gameType"] == "dice"  # a dice league's tournament
    [first] = tournament.data["leagueTournament"]["rounds"]
    assert first["round"] == 1 and len(first["tables"]) == 2 and len(first["byes"]) == 2
    assert all(t["sheriff"] in t["members"] and t["gameId"] and t["winningSide"] for t in first["tables"])

    table = first["tables"][0]
    member, opponent = table["members"][:2]
    h2h = await SCHEMA.execute(
        """
        query ($league: ID!, $member: ID!, $opponent: ID) {
          leagueHeadToHead(leagueId: $league, memberId: $member, opponentId: $opponent) {
            memberId opponentId games wins opponentWins
          }
        }
        """,
        {"league": LEAGUE, "member": member, "opponent": opponent},
        context_value=context,
    )
    assert h2h.data is not None
    [record] = h2h.data["leagueHeadToHead"]
    assert (record["memberId"], record["opponentId"], record["games"]) == (member, opponent, 1)


async def test_the_live_subscription_yields_when_the_projection_moves(
    league: LeagueService,
    games: GameService,
    projection: StandingsProjection,
    pg_pool: asyncpg.Pool,
    redis_client: aioredis.Redis,
) -> None:
    await found_league(league)
    await projection.run_until_idle()
    # a long poll interval: only the projection's Redis announcement can wake the subscription in time
    context = {"pool": pg_pool, "redis": redis_client, "league_poll_seconds": 30}
    updates = await SCHEMA.subscribe(
        """
        subscription ($league: ID!, $season: ID) {
          leagueStandingsUpdated(leagueId: $league, seasonId: $season) { position lines { memberId games } }
        }
        """,
        {"league": LEAGUE, "season": SEASON},
        context_value=context,
    )
    assert not isinstance(updates, strawberry.types.ExecutionResult)
    try:
        first = await asyncio.wait_for(anext(updates), 10)
        assert first.errors is None and first.data is not None
        assert all(line["games"] == 0 for line in first.data["leagueStandingsUpdated"]["lines"])

        await play_round(league, games, projection, 1)
        second = await asyncio.wait_for(anext(updates), 10)
        assert second.data is not None
        update = second.data["leagueStandingsUpdated"]
        assert update["position"] > first.data["leagueStandingsUpdated"]["position"]
        assert sum(line["games"] for line in update["lines"]) == 10
    finally:
        await updates.aclose()


async def test_without_redis_the_subscription_polls(
    league: LeagueService, games: GameService, projection: StandingsProjection, pg_pool: asyncpg.Pool
) -> None:
    await found_league(league)
    context = {"pool": pg_pool, "league_poll_seconds": 0.05}
    updates = await SCHEMA.subscribe(
        'subscription { leagueStandingsUpdated(leagueId: "saloon") { lines { games } } }',
        context_value=context,
    )
    assert not isinstance(updates, strawberry.types.ExecutionResult)
    try:
        await asyncio.wait_for(anext(updates), 10)
        await play_round(league, games, projection, 1)
        update = await asyncio.wait_for(anext(updates), 10)
        assert update.data is not None
        assert sum(line["games"] for line in update.data["leagueStandingsUpdated"]["lines"]) == 10
    finally:
        await updates.aclose()
