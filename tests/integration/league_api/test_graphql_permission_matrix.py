"""docs/permissions.md's "GraphQL mutations answer as their REST twin", walked: every field of
the schema's Mutation type (introspected, so a new mutation without a row fails) × every
caller, each on a target of its own, answered as the twin's matrix row says (a 2xx is data, a
refusal a GraphQL error carrying the twin's problem status) and a refusal changes nothing."""

from __future__ import annotations

import itertools
import re
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from litestar import Litestar

from tests.integration.clubs.conftest import Person
from tests.integration.clubs.test_permission_matrix import matrix as club_matrix
from tests.integration.league_api.conftest import LEAGUE, SEASON, Clubs, clubs, post, writes
from tests.integration.league_api.series_targets import SeriesTarget, series_matrix, series_targets
from tests.integration.league_api.test_permission_matrix import (
    COLUMNS,
    MATRIX,
    league_matrix,
)
from tests.integration.league_api.test_permission_matrix import targets as league_targets

SECTION = "## GraphQL mutations answer as their REST twin"
TWIN = re.compile(r"^\| `(?P<mutation>\w+)` \| `(?P<method>[A-Z]+) (?P<path>[^`]+)` \|$")
FRIENDLY_GAME = "create a friendly game"
MUTATIONS = """
{ __schema { mutationType { fields { name args { name type { ofType { name } } } } } } }
"""


def twins() -> dict[str, str]:
    """Each mutation's REST twin, ``METHOD path`` as the matrices write it."""
    lines = MATRIX.read_text().splitlines()
    start = lines.index(SECTION)
    found = {}
    for line in lines[start + 1 :]:
        if line.startswith("## "):
            break
        match = TWIN.match(line)
        if match:
            found[match["mutation"]] = f"{match['method']} {match['path']}"
    return found


def friendly_game_row() -> list[int]:
    """The game routes' "create a friendly game" row in the eight columns: a friendly game is
    any account's to create."""
    lines = MATRIX.read_text().splitlines()
    header = next(line for line in lines if line.startswith("| action | anonymous | any account |"))
    names = [c.strip() for c in header.strip("|").split("|")]
    row = next(line for line in lines if line.startswith(f"| {FRIENDLY_GAME} "))
    cells = dict(zip(names, (c.strip() for c in row.strip("|").split("|")), strict=True))
    return [int(cells["anonymous" if column == "anonymous" else "any account"]) for column in COLUMNS]


def expected_rows() -> dict[str, list[int]]:
    """Every REST route of the club and league tables (and ``POST /games``), with its cells."""
    columns, rows = club_matrix()
    assert columns == COLUMNS
    expected = {f"{method} {path}": cells for method, path, cells in rows}
    expected |= {f"{method} {path}": cells for method, path, cells in league_matrix()}
    expected |= {f"{method} {path}": cells for method, path, cells in series_matrix()}
    expected["POST /games"] = friendly_game_row()
    return expected


async def mutation_fields(client: httpx.AsyncClient) -> dict[str, str]:
    """The schema's mutations, each with the name of its ``input`` argument's type."""
    response = await client.post("/graphql", json={"query": MUTATIONS})
    assert response.status_code == 200, response.text
    fields = response.json()["data"]["__schema"]["mutationType"]["fields"]
    inputs = {}
    for field in fields:
        [argument] = field["args"]  # every mutation takes one `input`
        assert argument["name"] == "input", field
        inputs[field["name"]] = argument["type"]["ofType"]["name"]
    return inputs


async def test_every_mutation_has_a_rest_twin_in_the_matrix(client: httpx.AsyncClient) -> None:
    documented = twins()
    assert set(documented) == set(await mutation_fields(client))
    rows = expected_rows()
    assert all(route in rows for route in documented.values()), documented


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


Target = Callable[[Person | None], Awaitable[dict[str, Any]]]
"""Prepares a fresh target for one caller: the mutation's input."""


def camel_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {camel(k): camel_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [camel_keys(v) for v in value]
    return value


def series_inputs(app: Litestar, client: httpx.AsyncClient, c: Clubs) -> dict[str, Target]:
    """The series table's targets as GraphQL inputs: REST's body camel-cased, the path's series
    id as ``seriesId``."""

    def as_input(prepare: SeriesTarget) -> Target:
        async def given(caller: Person | None) -> dict[str, Any]:
            series_id, body = await prepare(caller)
            fields: dict[str, Any] = camel_keys(body)
            return fields if series_id is None else {"seriesId": series_id, **fields}

        return given

    return {route: as_input(prepare) for route, prepare in series_targets(app, client, c).items()}


def targets(client: httpx.AsyncClient, c: Clubs) -> dict[str, Target]:
    counter = itertools.count(1)
    league = league_targets(client, c)
    target = c.players[-1]
    path_inputs = {
        "league": "leagueId", "season": "seasonId", "tournament": "tournamentId", "round": "round",
        "table": "table", "game": "gameId", "seat": "seat",
    }  # fmt: skip

    def as_league_input(route: str) -> Target:
        async def prepare(caller: Person | None) -> dict[str, Any]:
            values, body = await league[route]()
            given: dict[str, Any] = {"leagueId": LEAGUE}
            for name, value in values.items():
                given[path_inputs[name]] = int(value) if name in ("round", "table") else value
            return given | camel_keys(body)

        return prepare

    async def friendly_game(caller: Person | None) -> dict[str, Any]:
        return {"commandId": f"lobby-{next(counter)}", "mode": "online", "playerCount": 3, "members": []}

    async def club(caller: Person | None) -> dict[str, Any]:
        return {"name": f"Club {next(counter)}"}

    async def invitation(caller: Person | None) -> dict[str, Any]:
        return {"clubId": c.home, "displayName": f"Newcomer {next(counter)}"}

    async def grant(caller: Person | None) -> dict[str, Any]:
        await revoke_referee()  # as the admin left it: the target is no referee
        return {"clubId": c.home, "accountId": target.account_id, "role": "referee"}

    async def revoke_referee() -> None:
        path = f"/clubs/{c.home}/roles/{target.account_id}/referee"
        answer = await client.delete(path, headers=c.admin.auth)
        assert answer.status_code in (204, 404), answer.text

    async def revocation(caller: Person | None) -> dict[str, Any]:
        body = {"account_id": target.account_id, "role": "referee"}
        answer = await client.post(f"/clubs/{c.home}/roles", json=body, headers=c.admin.auth)
        assert answer.status_code in (200, 201), answer.text
        return {"clubId": c.home, "accountId": target.account_id, "role": "referee"}

    async def api_token(caller: Person | None) -> dict[str, Any]:
        return {"label": f"script {next(counter)}", "grants": []}

    async def own_api_token(caller: Person | None) -> dict[str, Any]:
        if caller is None:
            return {"tokenId": "none"}
        made = await post(client, "/me/tokens", caller, {"label": "to revoke"})
        return {"tokenId": made["token_id"]}

    async def unclaimed_member(caller: Person | None) -> dict[str, Any]:
        registered = await post(
            client, f"/clubs/{c.home}/members", c.organiser, {"display_name": "Unclaimed"}
        )
        return {"clubId": c.home, "memberId": registered["member_id"]}

    async def new_league(caller: Person | None) -> dict[str, Any]:
        return {"clubId": c.home, "name": f"League {next(counter)}"}

    by_twin: dict[str, Target] = {
        "POST /games": friendly_game,
        "POST /clubs": club,
        "POST /clubs/{id}/invites": invitation,
        "POST /clubs/{id}/members": invitation,
        "POST /clubs/{id}/roles": grant,
        "DELETE /clubs/{id}/roles/{account}/{role}": revocation,
        "POST /me/tokens": api_token,
        "DELETE /me/tokens/{token}": own_api_token,
        "POST /clubs/{id}/leagues": new_league,
        "POST /clubs/{id}/members/{member}/login-link": unclaimed_member,
    }
    for route in league:
        by_twin[f"POST {route}"] = as_league_input(route)
    return by_twin


async def test_every_mutation_answers_every_caller_as_its_rest_twin(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    org = c.organiser
    # the league and the scorekeeper of one of its table games, as the REST matrix has them
    await post(client, f"/clubs/{c.home}/leagues", org, {"league_id": LEAGUE, "name": "Matrix League"})
    await post(client, f"/leagues/{LEAGUE}/seasons", org, {"season_id": SEASON, "name": "Main"})
    members = [p.account_id for p in c.players]
    await post(client, f"/leagues/{LEAGUE}/seasons/{SEASON}/entrants", org, {"member_ids": members})
    await post(
        client, f"/leagues/{LEAGUE}/seasons/{SEASON}/tournaments", org, {"tournament_id": "kept", "name": "K"}
    )
    await post(client, f"/leagues/{LEAGUE}/tournaments/kept/rounds", org, {})
    await post(
        client, f"/leagues/{LEAGUE}/tournaments/kept/rounds/1/tables/1/game", org,
        {"mode": "table", "scorekeeper": c.keeper.account_id},
    )  # fmt: skip
    callers: dict[str, Person | None] = {
        "admin": c.admin, "organiser": org, "referee": c.referee, "scorekeeper": c.keeper,
        "player": c.players[0], "foreign admin": c.foreign_admin, "foreign organiser": c.foreign_organiser,
        "anonymous": None,
    }  # fmt: skip
    inputs = await mutation_fields(client)
    rows = expected_rows()
    prepare = targets(client, c) | series_inputs(app, client, c)
    for field, twin in twins().items():
        query = f"mutation($input: {inputs[field]}!) {{ {field}(input: $input) {{ __typename }} }}"
        for column, expected in zip(COLUMNS, rows[twin], strict=True):
            caller = callers[column]
            given = await prepare[twin](caller)
            before = await writes(app)
            response = await client.post(
                "/graphql",
                json={"query": query, "variables": {"input": given}},
                headers={} if caller is None else caller.auth,
            )
            assert response.status_code == 200, (field, column, response.text)
            body = response.json()
            if expected < 300:
                assert not body.get("errors") and body["data"][field], (field, column, twin, body)
            else:
                assert (body.get("data") or {}).get(field) is None, (field, column, body)
                statuses = [e.get("extensions", {}).get("problem", {}).get("status") for e in body["errors"]]
                assert statuses == [expected], (field, column, twin, body)
                assert await writes(app) == before, (field, column)
