"""Standings and ratings follow the public API: two online games scheduled and played over REST
by the signed-in players themselves count in the standings and the ratings (GraphQL); a
referee's void over REST takes one out of both, and a no-show is a lost game without points."""

from __future__ import annotations

import random
from typing import Any

import httpx
from litestar import Litestar

from event_store import PostgresEventStore
from services.game.application.codec import GAME_MAPPER
from services.league.standings import StandingsProjection
from services.ratings import RatingConfig, rebuild
from services.ratings.consumer import ratings_subscription
from tests.integration.api.bots import play_to_the_end
from tests.integration.clubs.conftest import Person
from tests.integration.clubs.test_clubs import pool_of
from tests.integration.league_api.conftest import (
    LEAGUE,
    SEASON,
    TOURNAMENT,
    Clubs,
    clubs,
    post,
    seated_league,
)
from tests.integration.ratings.games import recorded_outcomes

ROUND = f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds/1"
QUERY = """
query ($league: ID!, $season: ID, $pool: String!) {
  leagueStandings(leagueId: $league, seasonId: $season) { lines { memberId games forfeits points wins } }
  ratingLeaderboard(limit: 100, pool: $pool) { memberId rating games }
}
"""


async def consume(app: Litestar) -> PostgresEventStore:
    """What the deployment's consumers do in the background: the standings and the ratings."""
    store = PostgresEventStore(pool_of(app), mapper=GAME_MAPPER)
    standings = StandingsProjection(store)
    await standings.run_until_idle()
    await standings.close()
    await ratings_subscription(store).run_until_idle()
    return store


async def view(
    client: httpx.AsyncClient, club: str, member: Person
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """The league's standings and its club's ratings as a member of the club reads them (the
    league is members-only; its games are rated in the club's pool: docs/ratings.md, "What is
    rated: pools")."""
    variables = {"league": LEAGUE, "season": SEASON, "pool": f"club:{club}"}
    body = {"query": QUERY, "variables": variables}
    response = await client.post("/graphql", json=body, headers=member.auth)
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    standings = {line["memberId"]: line for line in data["leagueStandings"]["lines"]}
    return standings, {row["memberId"]: row for row in data["ratingLeaderboard"]}


async def play(client: httpx.AsyncClient, c: Clubs, table: int) -> str:
    scheduled = await post(client, f"{ROUND}/tables/{table}/game", c.organiser, {"mode": "online"})
    game_id: str = scheduled["game_id"]
    sessions = {m["member_id"]: c.by_id(m["member_id"]).token for m in scheduled["members"]}
    ended = await play_to_the_end(client, game_id, sessions, random.Random(table))
    assert ended["status"] == "ended"
    return game_id


async def test_a_void_over_the_api_takes_the_game_out_of_standings_and_ratings(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    seated = await seated_league(client, c)
    first, second = seated["tables"][:2]
    tables = {t["table"]: [m["member_id"] for m in t["members"]] for t in (first, second)}
    games = {table: await play(client, c, table) for table in tables}
    await consume(app)
    standings, ratings = await view(client, c.home, c.players[0])
    for members in tables.values():
        assert all(standings[m]["games"] == 1 and ratings[m]["games"] == 1 for m in members)

    voided_table, kept_table = first["table"], second["table"]
    void = f"/leagues/{LEAGUE}/games/{games[voided_table]}/void"
    await post(client, void, c.referee, {"reason": "dice entered twice"})
    store = await consume(app)
    standings, ratings = await view(client, c.home, c.players[0])
    for member in tables[voided_table]:
        assert (standings[member]["games"], standings[member]["points"]) == (0, 0)
        assert member not in ratings  # their only rated game is gone
    expected = rebuild(
        [o for o in await recorded_outcomes(store) if o.game_id != games[voided_table]], RatingConfig()
    )
    for member in tables[kept_table]:
        assert standings[member]["games"] == 1
        assert ratings[member]["rating"] == expected.rating(member).rating  # type: ignore[arg-type]
        assert ratings[member]["games"] == 1
    assert len(ratings) == len(tables[kept_table])

    # the replay of that table without the one who did not come: a no-show, a loss worth nothing
    absent = tables[voided_table][0]
    no_show = {"table": voided_table, "member_id": absent, "kind": "no-show"}
    await post(client, f"{ROUND}/forfeits", c.organiser, no_show)
    await consume(app)
    standings, ratings = await view(client, c.home, c.players[0])
    assert standings[absent] == {"memberId": absent, "games": 1, "forfeits": 1, "points": 0, "wins": 0}
    assert absent not in ratings  # a forfeit is not a rated game
