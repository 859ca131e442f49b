"""A table's scorekeeper sees every role at it, so the league never names one of the table's
players as its scorekeeper (issue 20): the schedule is refused with 422 naming the member and
his seat, over REST and GraphQL, and nothing is stored (no reservation, no event, no role)."""

from __future__ import annotations

import httpx
from litestar import Litestar

from tests.integration.league_api.conftest import LEAGUE, TOURNAMENT, clubs, post, seated_league, writes
from tests.integration.league_api.test_graphql import mutate

ROUND = f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds/1"


async def test_a_player_of_the_table_is_not_scheduled_as_its_scorekeeper(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    table = (await seated_league(client, c))["tables"][0]
    seated = table["members"][1]
    before = await writes(app)
    refused = await client.post(
        f"{ROUND}/tables/1/game",
        json={"mode": "table", "scorekeeper": seated["member_id"]},
        headers=c.organiser.auth,
    )
    assert refused.status_code == 422, refused.text
    body = refused.json()
    assert body["type"].endswith("/scorekeeper-seated") and body["field"] == "scorekeeper", body
    assert f"{seated['display_name']} (seat 2 at table 1)" in body["detail"], body
    assert "sees every role" in body["detail"]
    given = {
        "leagueId": LEAGUE, "tournamentId": TOURNAMENT, "round": 1, "table": 1, "mode": "table",
        "scorekeeper": seated["member_id"],
    }  # fmt: skip
    data, errors = await mutate(client, c.organiser, "scheduleGame", "ScheduleGameInput", given, "{ gameId }")
    assert data is None and errors[0]["extensions"]["problem"]["status"] == 422, errors
    assert await writes(app) == before
    # a member who plays elsewhere, or not at all, keeps it
    scheduled = await post(
        client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "table", "scorekeeper": c.keeper.account_id}
    )
    assert scheduled["scorekeeper"]["member_id"] == c.keeper.account_id
