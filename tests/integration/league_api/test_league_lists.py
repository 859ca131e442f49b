"""The leagues a page picks by name (`leagues`): every league the caller may read and no other,
by the leagues' one rule (services/league/visibility.py): a club's members see its members-only
leagues, a stranger (another club's admin) and an anonymous caller only the public ones, and a
stranger's own members-only league is listed to him and to nobody outside his club. Each item
names the league and its club, so no page has to show or ask for an id."""

from __future__ import annotations

from typing import Any

import httpx
from litestar import Litestar

from tests.integration.clubs.conftest import Person
from tests.integration.league_api.conftest import clubs, post
from tests.integration.league_api.test_league_reads import league, project

LIST = (
    "query($offset: Int!) { leagues(limit: 2, offset: $offset) "
    "{ nextOffset items { leagueId name club { clubId name } seasons gameType } } }"
)


async def listed(client: httpx.AsyncClient, caller: Person | None) -> list[dict[str, Any]]:
    """Every page of ``leagues`` as ``caller`` reads it, two at a time."""
    items: list[dict[str, Any]] = []
    offset: int | None = 0
    while offset is not None:
        headers = {} if caller is None else caller.auth
        answer = await client.post(
            "/graphql", json={"query": LIST, "variables": {"offset": offset}}, headers=headers
        )
        body = answer.json()
        assert answer.status_code == 200 and not body.get("errors"), body
        items += body["data"]["leagues"]["items"]
        offset = body["data"]["leagues"]["nextOffset"]
        assert len(items) < 20, "bounded"
    return items


async def test_the_leagues_list_shows_each_caller_what_he_may_read_by_name(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    await league(client, c, "open", "public")
    await league(client, c, "closed", "members")
    away = {"league_id": "away_closed", "name": "Away Nights", "visibility": "members"}
    await post(client, f"/clubs/{c.away}/leagues", c.foreign_admin, away)
    away_public = {
        "league_id": "away_open",
        "name": "Away Open",
        "visibility": "public",
        "game_type": "cards",
    }
    await post(client, f"/clubs/{c.away}/leagues", c.foreign_admin, away_public)
    await project(app)

    def ids(items: list[dict[str, Any]]) -> list[str]:
        return [item["leagueId"] for item in items]

    # by club name (Away Saloon before Home Saloon), then league name
    member = await listed(client, c.players[0])
    assert ids(member) == ["away_open", "closed", "open"]
    assert ids(await listed(client, c.organiser)) == ["away_open", "closed", "open"]
    assert ids(await listed(client, c.foreign_admin)) == ["away_closed", "away_open", "open"]
    assert ids(await listed(client, None)) == ["away_open", "open"]
    by_id = {item["leagueId"]: item for item in member}
    assert by_id["closed"] == {
        "leagueId": "closed",
        "name": "closed",
        "club": {"clubId": c.home, "name": "Home Saloon"},
        "seasons": 1,
        "gameType": "dice",
    }
    assert by_id["away_open"]["club"]["name"] == "Away Saloon" and by_id["away_open"]["gameType"] == "cards"

    # made members-only: gone from the stranger's list at once (the rule is read from the stream)
    await post(client, "/leagues/open/visibility", c.organiser, {"visibility": "members"})
    assert ids(await listed(client, c.foreign_admin)) == ["away_closed", "away_open"]
    assert ids(await listed(client, None)) == ["away_open"]
    assert ids(await listed(client, c.players[1])) == ["away_open", "closed", "open"]


async def test_a_bad_page_of_leagues_is_refused_naming_the_argument(client: httpx.AsyncClient) -> None:
    for query, argument in (
        ("{ leagues(limit: 0) { nextOffset } }", "limit"),
        ("{ leagues(offset: -1) { nextOffset } }", "offset"),
    ):
        body = (await client.post("/graphql", json={"query": query})).json()
        assert body["data"] is None or body["data"].get("leagues") is None, body
        problem = body["errors"][0]["extensions"]["problem"]
        assert problem["status"] == 400 and argument in problem["detail"], body
