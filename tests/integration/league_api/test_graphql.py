"""The same league management as GraphQL mutations: the same inputs, roles and refusals."""

from __future__ import annotations

from typing import Any

import httpx
from litestar import Litestar

from tests.integration.clubs.conftest import Person
from tests.integration.league_api.conftest import clubs, writes

PERSON = "{ memberId displayName }"


async def mutate(
    client: httpx.AsyncClient, who: Person, field: str, input_type: str, given: dict[str, Any], select: str
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    query = f"mutation($input: {input_type}!) {{ {field}(input: $input) {select} }}"
    request = {"query": query, "variables": {"input": given}}
    response = await client.post("/graphql", json=request, headers=who.auth)
    assert response.status_code == 200, response.text
    body = response.json()
    return (body.get("data") or {}).get(field), body.get("errors") or []


async def ok(client: httpx.AsyncClient, who: Person, *args: Any) -> dict[str, Any]:
    data, errors = await mutate(client, who, *args)
    assert not errors and data is not None, errors
    return data


async def test_a_round_run_through_graphql_mutations(app: Litestar, client: httpx.AsyncClient) -> None:
    c = await clubs(app, client)
    league = await ok(
        client, c.organiser, "foundLeague", "FoundLeagueInput",
        {"clubId": c.home, "leagueId": "gql", "name": "GraphQL League", "commandId": "f1"},
        "{ leagueId clubId name new }",
    )  # fmt: skip
    assert league == {"leagueId": "gql", "clubId": c.home, "name": "GraphQL League", "new": True}
    again = await ok(
        client, c.organiser, "foundLeague", "FoundLeagueInput",
        {"clubId": c.home, "leagueId": "gql", "name": "GraphQL League", "commandId": "f1"}, "{ new }",
    )  # fmt: skip
    assert again == {"new": False}
    await ok(client, c.organiser, "openSeason", "OpenSeasonInput",
             {"leagueId": "gql", "seasonId": "s", "name": "Season"}, "{ seasonId }")  # fmt: skip
    members = [p.account_id for p in c.players]
    enrolled = await ok(client, c.organiser, "enrolPlayers", "EnrolPlayersInput",
                        {"leagueId": "gql", "seasonId": "s", "memberIds": members},
                        f"{{ enrolled {PERSON} }}")  # fmt: skip
    assert [e["displayName"] for e in enrolled["enrolled"]] == [p.display_name for p in c.players]
    tournament = {"leagueId": "gql", "seasonId": "s", "tournamentId": "t", "name": "Cup"}
    await ok(client, c.organiser, "openTournament", "OpenTournamentInput", tournament, "{ tournamentId }")
    seated = await ok(
        client, c.organiser, "seatRound", "SeatRoundInput", {"leagueId": "gql", "tournamentId": "t"},
        f"{{ round tables {{ table members {PERSON} sheriff {PERSON} }} }}",
    )  # fmt: skip
    assert seated["round"] == 1 and all(t["sheriff"] in t["members"] for t in seated["tables"])

    scheduled = await ok(
        client, c.organiser, "scheduleGame", "ScheduleGameInput",
        {"leagueId": "gql", "tournamentId": "t", "round": 1, "table": 1, "mode": "online"},
        f"{{ gameId gameCreated members {PERSON} sheriff {PERSON} }}",
    )  # fmt: skip
    assert scheduled["gameCreated"] and scheduled["members"] == seated["tables"][0]["members"]
    keeper = await ok(
        client, c.organiser, "scheduleGame", "ScheduleGameInput",
        {"leagueId": "gql", "tournamentId": "t", "round": 1, "table": 2, "mode": "table",
         "scorekeeper": c.keeper.account_id},
        f"{{ gameId scorekeeper {PERSON} }}",
    )  # fmt: skip
    assert keeper["scorekeeper"]["displayName"] == "Kim Keeper"
    absent = seated["tables"][0]["members"][0]["memberId"]
    forfeit = await ok(client, c.organiser, "recordForfeit", "RecordForfeitInput",
                       {"leagueId": "gql", "tournamentId": "t", "round": 1, "table": 1, "memberId": absent},
                       f"{{ kind member {PERSON} }}")  # fmt: skip
    assert forfeit["kind"] == "forfeit" and forfeit["member"]["memberId"] == absent
    await ok(client, c.organiser, "closeRound", "CloseRoundInput",
             {"leagueId": "gql", "tournamentId": "t", "round": 1}, "{ round }")  # fmt: skip

    # the referee voids; the foreign organiser is refused, with REST's problem, changing nothing
    before = await writes(app)
    void = {"leagueId": "gql", "gameId": scheduled["gameId"], "reason": "wrong table"}
    data, errors = await mutate(client, c.foreign_organiser, "voidGame", "VoidGameInput", void, "{ reason }")
    assert data is None and errors[0]["extensions"]["problem"]["status"] == 403
    table_two = {"leagueId": "gql", "tournamentId": "t", "round": 1, "table": 2, "mode": "online"}
    data, errors = await mutate(
        client, c.referee, "scheduleGame", "ScheduleGameInput", table_two, "{ gameId }"
    )
    assert errors[0]["extensions"]["problem"]["status"] == 403
    assert await writes(app) == before
    voided = await ok(client, c.referee, "voidGame", "VoidGameInput", void, "{ gameId reason new }")
    assert voided == {"gameId": scheduled["gameId"], "reason": "wrong table", "new": True}
    season = {"leagueId": "gql", "seasonId": "s"}
    await ok(client, c.admin, "closeSeason", "CloseSeasonInput", season, "{ seasonId }")


async def test_an_input_out_of_bounds_names_its_field(app: Litestar, client: httpx.AsyncClient) -> None:
    c = await clubs(app, client)
    data, errors = await mutate(
        client, c.organiser, "recordForfeit", "RecordForfeitInput",
        {"leagueId": "gql", "tournamentId": "t", "round": 1, "table": 1, "memberId": "m", "kind": "resigned"},
        "{ kind }",
    )  # fmt: skip
    assert data is None
    problem = errors[0]["extensions"]["problem"]
    assert problem["status"] == 400 and "kind" in problem["detail"]
