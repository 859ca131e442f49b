"""One policy per league read (services/league/visibility.py), walked: every league read of REST
and of GraphQL (the schema's query and subscription fields that take a league, introspected, so
a new one without a row here fails) × a public and a members-only league × a member of the
league's club, a stranger (another club's admin) and an anonymous caller. A public league is
anyone's to read; a members-only one its club members', the others refused alike on both
channels (401 anonymous, 403 a stranger). A club's league list shows a stranger its public
leagues only."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any

import httpx
from litestar import Litestar

from event_store import PostgresEventStore
from graphql import GraphQLError
from services.api.errors import problem_for
from services.api.schema import build_schema
from services.league.standings import StandingsProjection
from tests.integration.clubs.conftest import Person
from tests.integration.clubs.test_clubs import pool_of
from tests.integration.directory.conftest import catch_up
from tests.integration.league_api.conftest import Clubs, clubs, post

PUBLIC, MEMBERS = "open", "closed"
SEASON, TOURNAMENT = "spring", "nights"
FIELDS = """
{ __schema {
    queryType { fields { name args { name } } }
    subscriptionType { fields { name args { name } } }
} }
"""


async def league(client: httpx.AsyncClient, c: Clubs, league_id: str, visibility: str) -> dict[str, str]:
    """A league with a seated round whose table 1 is scheduled: the ids its reads name."""
    org = c.organiser
    await post(
        client,
        f"/clubs/{c.home}/leagues",
        org,
        {"league_id": league_id, "name": league_id, "visibility": visibility},
    )
    await post(client, f"/leagues/{league_id}/seasons", org, {"season_id": SEASON, "name": "Spring"})
    members = [p.account_id for p in c.players]
    await post(client, f"/leagues/{league_id}/seasons/{SEASON}/entrants", org, {"member_ids": members})
    tournament = {"tournament_id": TOURNAMENT, "name": "Nights"}
    await post(client, f"/leagues/{league_id}/seasons/{SEASON}/tournaments", org, tournament)
    seated = await post(client, f"/leagues/{league_id}/tournaments/{TOURNAMENT}/rounds", org, {"seed": "s"})
    game = await post(
        client,
        f"/leagues/{league_id}/tournaments/{TOURNAMENT}/rounds/1/tables/1/game",
        org,
        {"mode": "table"},
    )
    member = seated["tables"][0]["members"][0]["member_id"]
    return {"league": league_id, "game": game["game_id"], "member": member, "club": c.home}


async def project(app: Litestar) -> None:
    """What the deployment's consumers do in the background: the directory and the standings."""
    await catch_up(app)
    standings = StandingsProjection(PostgresEventStore(pool_of(app)))
    await standings.run_until_idle()
    await standings.close()


def rest_reads(ids: dict[str, str]) -> dict[str, str]:
    league_id = ids["league"]
    return {
        "league": f"/leagues/{league_id}",
        "rounds": f"/leagues/{league_id}/tournaments/{TOURNAMENT}/rounds",
        "audit": f"/leagues/{league_id}/games/{ids['game']}/audit",
    }


GRAPHQL_QUERIES = {
    "leagueStandings": "query($l: ID!) { leagueStandings(leagueId: $l) { lines { memberId } } }",
    "leagueTournament": f'query($l: ID!) {{ leagueTournament(leagueId: $l, tournamentId: "{TOURNAMENT}") '
    "{ rounds { tables { members gameId } } } }",
    "leagueHeadToHead": "query($l: ID!, $m: ID!) { leagueHeadToHead(leagueId: $l, memberId: $m) { games } }",
    "league": "query($l: ID!) { league(leagueId: $l) { leagueId } }",
    # who played there: the ratings of the league's players
    "ratingLeaderboard": "query($l: String!) { ratingLeaderboard(leagueId: $l) { memberId } }",
    "tournamentRounds": f'query($l: ID!) {{ tournamentRounds(leagueId: $l, tournamentId: "{TOURNAMENT}") '
    "{ items { round } } }",
}
GRAPHQL_SUBSCRIPTIONS = {
    "leagueStandingsUpdated": "subscription($l: ID!) { leagueStandingsUpdated(leagueId: $l) "
    "{ lines { memberId } } }",
}


async def league_fields(client: httpx.AsyncClient) -> tuple[set[str], set[str]]:
    """The schema's query and subscription fields that read one league (a ``leagueId`` argument)."""
    schema = (await client.post("/graphql", json={"query": FIELDS})).json()["data"]["__schema"]

    def reading(kind: str) -> set[str]:
        return {f["name"] for f in schema[kind]["fields"] if any(a["name"] == "leagueId" for a in f["args"])}

    return reading("queryType"), reading("subscriptionType")


async def subscribed(app: Litestar, query: str, ids: dict[str, str], caller: Person | None) -> int:
    """The first answer of a subscription, run on the app's schema as a WebSocket would (the
    token in the connection params): 200 for data, else the problem's status."""
    context = {
        "pool": pool_of(app),
        "clubs": app.state.clubs,
        "league_poll_seconds": 0.05,
        "connection_params": {} if caller is None else {"Authorization": f"Bearer {caller.token}"},
    }
    answer = await build_schema().subscribe(
        query, variable_values={"l": ids["league"]}, context_value=context
    )
    if not isinstance(answer, AsyncGenerator):
        return raised_status(answer.errors or [])
    try:
        first = await asyncio.wait_for(anext(answer), 10)
    finally:
        await answer.aclose()
    return 200 if not first.errors else raised_status(first.errors)


def problem_status(errors: list[dict[str, Any]]) -> int:
    """The one problem status of a GraphQL answer's errors (REST's status for the same refusal)."""
    statuses = [e.get("extensions", {}).get("problem", {}).get("status") for e in errors]
    assert len(statuses) == 1 and statuses[0] is not None, errors
    return int(statuses[0])


def raised_status(errors: list[GraphQLError]) -> int:
    """As ``problem_status``, for the errors of the schema run in-process."""
    assert len(errors) == 1, errors
    problem = problem_for(errors[0].original_error) if errors[0].original_error is not None else None
    assert problem is not None, errors
    return problem.status


async def test_every_league_read_applies_one_rule_on_every_channel(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    leagues = {
        PUBLIC: await league(client, c, PUBLIC, "public"),
        MEMBERS: await league(client, c, MEMBERS, "members"),
    }
    await project(app)
    queries, subscriptions = await league_fields(client)
    assert queries == set(GRAPHQL_QUERIES), "a league read without a row in this test"
    assert subscriptions == set(GRAPHQL_SUBSCRIPTIONS), "a league subscription without a row in this test"
    callers: dict[str, Person | None] = {
        "member": c.players[0],
        "stranger": c.foreign_admin,
        "anonymous": None,
    }
    for name, ids in leagues.items():
        for who, caller in callers.items():
            expected = 200 if name == PUBLIC or who == "member" else 401 if caller is None else 403
            headers = {} if caller is None else caller.auth
            for read, path in rest_reads(ids).items():
                answer = await client.get(path, headers=headers)
                assert answer.status_code == expected, (name, who, read, answer.text)
                if expected == 403:
                    assert answer.json()["type"].endswith("/role-required"), answer.text
            for field, query in GRAPHQL_QUERIES.items():
                variables = {"l": ids["league"], "m": ids["member"]}
                response = await client.post(
                    "/graphql", json={"query": query, "variables": variables}, headers=headers
                )
                body = response.json()
                if expected == 200:
                    assert not body.get("errors") and body["data"][field] is not None, (
                        name,
                        who,
                        field,
                        body,
                    )
                else:
                    assert (body.get("data") or {}).get(field) is None, (name, who, field, body)
                    assert problem_status(body["errors"]) == expected, (name, who, field, body)
            for field, query in GRAPHQL_SUBSCRIPTIONS.items():
                assert await subscribed(app, query, ids, caller) == expected, (name, who, field)
            # the club's league list: a stranger sees the public league only
            listed = await client.get(f"/clubs/{c.home}/leagues", headers=headers)
            assert listed.status_code == 200, listed.text
            shown = {item["league_id"] for item in listed.json()["items"]}
            assert (ids["league"] in shown) == (expected == 200), (name, who, shown)
            gql = f'{{ clubLeagues(clubId: "{c.home}") {{ items {{ leagueId }} }} }}'
            page = (await client.post("/graphql", json={"query": gql}, headers=headers)).json()
            shown = {item["leagueId"] for item in page["data"]["clubLeagues"]["items"]}
            assert (ids["league"] in shown) == (expected == 200), (name, who, shown)


async def test_a_league_made_members_only_is_closed_to_strangers_at_once(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    """The setting is a league command: the club's organiser changes it (a player may not), and
    the next read follows it."""
    c = await clubs(app, client)
    ids = await league(client, c, PUBLIC, "public")
    await project(app)
    standings = "query($l: ID!) { leagueStandings(leagueId: $l) { lines { memberId } } }"

    async def anonymous_reads() -> int:
        body = (
            await client.post("/graphql", json={"query": standings, "variables": {"l": ids["league"]}})
        ).json()
        return 200 if not body.get("errors") else problem_status(body["errors"])

    assert await anonymous_reads() == 200
    refused = await client.post(
        f"/leagues/{PUBLIC}/visibility", json={"visibility": "members"}, headers=c.players[0].auth
    )
    assert refused.status_code == 403, refused.text
    assert await anonymous_reads() == 200
    changed = await post(client, f"/leagues/{PUBLIC}/visibility", c.organiser, {"visibility": "members"})
    assert changed == {"league_id": PUBLIC, "visibility": "members"}
    assert await anonymous_reads() == 401
    assert (await client.get(f"/leagues/{PUBLIC}", headers=c.foreign_admin.auth)).status_code == 403
    assert (await client.get(f"/leagues/{PUBLIC}", headers=c.players[0].auth)).status_code == 200
    # asking for what it is already changes nothing; bad input names the field
    again = await client.post(
        f"/leagues/{PUBLIC}/visibility", json={"visibility": "members"}, headers=c.organiser.auth
    )
    assert again.status_code == 200, again.text
    bad = await client.post(
        f"/leagues/{PUBLIC}/visibility", json={"visibility": "secret"}, headers=c.organiser.auth
    )
    assert bad.status_code == 400 and "visibility" in bad.text, bad.text
    assert (await client.get(f"/leagues/{PUBLIC}")).status_code == 401
