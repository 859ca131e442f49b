"""Every field is bounded at the edge (services/game/edge/bounds.py): a value out of bounds is a 400
naming the field and the rule, and nothing is stored (issue 9, findings 1 and 7).

Each reproducer was a 201 (and a poison event) or a 500 before the bounds."""

from __future__ import annotations

import dataclasses
from typing import Any

import asyncpg
import httpx
import pytest
from litestar import Litestar

from services.api import ApiSettings
from tests.integration.api.bots import bearer, create_online_game, player_tokens
from tests.integration.api.conftest import resources_of
from tests.integration.api.people import people

GAME = {"command_id": "bounded", "mode": "online", "player_count": 3}
MEMBERS = [{"member_id": f"m{i}", "name": f"Bot {i}"} for i in (1, 2, 3)]

NUL, ESC, RLO, LRI, NEL = "\u0000", "\u001b", "\u202e", "\u2066", "\u0085"


async def stored(pool: asyncpg.Pool) -> tuple[int, int, int]:
    """Events, streams and issued tokens: what a refused request must leave as it was."""
    row = await pool.fetchrow(
        "SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM streams),"
        " (SELECT count(*) FROM access_tokens)"
    )
    assert row is not None
    return row[0], row[1], row[2]


def refused(response: httpx.Response, field: str, *rule: str) -> dict[str, Any]:
    assert response.status_code == 400, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["type"].endswith("/invalid-request"), body
    assert body["field"] == field, body
    for words in rule:
        assert words in body["detail"], body
    return body


@pytest.fixture
def api_settings(api_settings: ApiSettings) -> ApiSettings:
    """The default body limit (256 KiB), as the demo server has: a 20,000-deep body fits in it."""
    server = dataclasses.replace(api_settings.server, request_max_body_size=256 * 1024)
    return dataclasses.replace(api_settings, server=server)


@pytest.fixture
async def pool(app: Litestar, client: httpx.AsyncClient) -> asyncpg.Pool:
    return resources_of(app).pool


@pytest.mark.parametrize(
    ("extra", "field", "rule"),
    [
        # the three poison events of issue 9, finding 1
        ({"context": {"league_id": "demo", "round": 99999999999999999999}}, "context.round", "<= 1000"),
        ({"context": {"league_id": f"demo{NUL}x"}}, "context.league_id", "letters, digits"),
        ({"options": {"decision_timeout_seconds": 300000000000}}, "options.decision_timeout_seconds", "<= "),
        ({"context": {"table": -1}}, "context.table", ">= 1"),
        ({"options": {"decision_timeout_seconds": 0}}, "options.decision_timeout_seconds", ">= 1"),
        ({"context": {"season_id": "s" * 101}}, "context.season_id", "length <= 100"),
        ({"context": {"league_id": "demo\n"}}, "context.league_id", "letters, digits"),
        ({"context": {"colour": "red"}}, "context", "unknown field `colour`"),
        ({"game_id": "g\n"}, "game_id", "letters, digits and _ . : -"),
        ({"game_id": "g@x"}, "game_id", "letters, digits and _ . : -"),
        ({"player_count": 10**20}, "player_count", "<= 100"),
        ({"command_id": f"c{ESC}[31m"}, "command_id", "no control characters"),
        ({"sheriff_member": f"m1{RLO}"}, "sheriff_member", "letters, digits"),
    ],
)
async def test_a_create_out_of_bounds_is_a_400_naming_the_field_and_stores_nothing(
    client: httpx.AsyncClient,
    organiser_token: str,
    pool: asyncpg.Pool,
    extra: dict[str, Any],
    field: str,
    rule: str,
) -> None:
    before = await stored(pool)
    response = await client.post(
        "/games", json={**GAME, "members": MEMBERS, **extra}, headers=bearer(organiser_token)
    )
    refused(response, field, rule)
    assert await stored(pool) == before


@pytest.mark.parametrize(
    "name",
    [
        *(f"Ann{c}" for c in (NUL, RLO, LRI, NEL, "\n", "\r")),
        f"{ESC}[2JAnn",
        "",
        "A" * 101,
    ],
)
async def test_names_refuse_control_characters(
    client: httpx.AsyncClient, organiser_token: str, pool: asyncpg.Pool, name: str
) -> None:
    before = await stored(pool)
    members = [{**MEMBERS[0], "name": name}, *MEMBERS[1:]]
    response = await client.post("/games", json={**GAME, "members": members}, headers=bearer(organiser_token))
    refused(response, "members[0].name")
    assert await stored(pool) == before


async def test_ordinary_names_in_any_script_are_welcome(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    names = ["Zoë Ünal", "Сергей", "李小龍 🤠", "O'Brien-Smith (Law)"]
    members = [{"member_id": f"m{i}", "name": n} for i, n in enumerate(names)]
    response = await client.post(
        "/games",
        json={**GAME, "player_count": 4, "members": members},
        headers=bearer(organiser_token),
    )
    assert response.status_code == 201, response.text
    assert [j["name"] for j in response.json()["state"]["joined"]] == names


async def test_a_join_out_of_bounds_stores_nothing(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str, pool: asyncpg.Pool
) -> None:
    lobby = await client.post("/games", json=GAME, headers=bearer(organiser_token))
    assert lobby.status_code == 201, lobby.text
    joins = f"/games/{lobby.json()['game_id']}/players"
    [ann] = await people(app, client, "Ann")
    before = await stored(pool)
    for body, field in [
        ({"command_id": "j", "member_id": f"m{NUL}"}, "member_id"),
        ({"command_id": "j" * 201}, "command_id"),
    ]:
        refused(await client.post(joins, json=body, headers=ann.auth), field)
    # the name shown is the account's display name: a join names none
    named = {"command_id": "j", "name": f"Ann{ESC}]0;owned"}
    unknown = await client.post(joins, json=named, headers=ann.auth)
    assert unknown.status_code == 400 and "name" in unknown.json()["detail"], unknown.text
    assert await stored(pool) == before


@pytest.fixture
async def online(app: Litestar, client: httpx.AsyncClient, organiser_token: str) -> dict[str, Any]:
    created = await create_online_game(client, organiser_token, players=3)
    state = created["state"]
    seat = state["awaiting"]["player"]
    member = next(p["member_id"] for p in state["players"] if p["id"] == seat)
    return {**created, "seat": seat, "token": (await player_tokens(app, created))[member]}


@pytest.mark.parametrize(
    ("body", "field", "rule"),
    [
        ({"expected_version": -5}, "expected_version", ">= 1"),
        ({"expected_version": 1e23}, "expected_version", "got `float`"),
        ({"expected_version": 10**23}, "expected_version", "<= 2147483647"),
        ({"command": "x" * 201}, "command", "length <= 200"),
        ({"command": f"SEAT stop{NUL}"}, "command", "no control characters"),
        ({"command": {f"k{i}": i for i in range(11)}}, "command", "at most 10 fields"),
        # an object's values too: the rules never see them, nor repeat them in a refusal
        (
            {"command": {"type": "Reroll", "player": "SEAT", "dice": list(range(4_000))}},
            "command.dice",
            "at most 80 items",
        ),
        (
            {"command": {"type": "StopRolling", "player": "p" * 101}},
            "command.player",
            "at most 100 characters",
        ),
    ],
)
async def test_a_command_out_of_bounds_is_a_400_not_a_conflict(
    client: httpx.AsyncClient,
    pool: asyncpg.Pool,
    online: dict[str, Any],
    body: dict[str, Any],
    field: str,
    rule: str,
) -> None:
    before = await stored(pool)
    if isinstance(body.get("command"), str):
        body = {**body, "command": body["command"].replace("SEAT", online["seat"])}
    elif body.get("command", {}).get("player") == "SEAT":
        body = {**body, "command": {**body["command"], "player": online["seat"]}}
    response = await client.post(
        f"/games/{online['game_id']}/commands",
        json={"command": f"{online['seat']} stop", "command_id": "c1", **body},
        headers=bearer(online["token"]),
    )
    refused(response, field, rule)
    assert await stored(pool) == before


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("from_version=99999999999999999999", "from_version"),
        ("from_version=2147483648", "from_version"),
        ("from_version=-1", "from_version"),
        ("limit=1001", "limit"),
        ("limit=0", "limit"),
    ],
)
async def test_event_pages_out_of_bounds_are_400s(
    client: httpx.AsyncClient, online: dict[str, Any], query: str, field: str
) -> None:
    refused(await client.get(f"/games/{online['game_id']}/events?{query}"), field)


async def test_time_travel_past_any_integer_is_a_400(
    client: httpx.AsyncClient, online: dict[str, Any]
) -> None:
    refused(await client.get(f"/games/{online['game_id']}/versions/99999999999999999999"), "version")
    refused(await client.get(f"/games/{online['game_id']}/versions/0"), "version")


@pytest.mark.parametrize("opening", [b"[", b'{"a":'])
async def test_a_20000_deep_json_body_is_a_400(
    client: httpx.AsyncClient, online: dict[str, Any], pool: asyncpg.Pool, opening: bytes
) -> None:
    closing = {b"[": b"]", b'{"a":': b"}"}[opening]
    deep = opening * 20_000 + b"1" * (opening == b'{"a":') + closing * 20_000
    before = await stored(pool)
    for url, body in [
        (f"/games/{online['game_id']}/commands", b'{"command_id": "d", "command": ' + deep + b"}"),
        ("/games", deep),
        ("/graphql", b'{"query": "{ ratingsStatus { games } }", "variables": ' + deep + b"}"),
    ]:
        response = await client.post(
            url, content=body, headers={**bearer(online["token"]), "content-type": "application/json"}
        )
        assert response.status_code == 400, (url, response.status_code, response.text[:300])
        assert "nests too deeply" in response.text
    assert await stored(pool) == before
    assert (await client.get("/health")).status_code == 200


async def test_an_import_out_of_bounds_stores_nothing(
    client: httpx.AsyncClient, organiser_token: str, pool: asyncpg.Pool
) -> None:
    seats = [
        {"player": "p1", "role": "sheriff", "character": "paul_regret"},
        {"player": "p2", "role": "renegade", "character": "willy_the_kid"},
        {"player": "p3", "role": "outlaw", "character": "black_jack"},
        {"player": "p4", "role": "outlaw", "character": "lucky_duke"},
    ]
    record = {"format": "bang-dice-record", "version": 1, "seats": seats}
    before = await stored(pool)
    for bad, words in [
        ({"meta": {"club": f"Club{NUL}"}}, "no control characters"),
        ({"meta": {"game_id": "g\n"}}, "letters, digits"),
        ({"meta": {"notes": f"{ESC}[31mred"}}, "no control characters other than tab"),
        ({"position": {"turn": 99999999999999999999}}, "<= 100000"),
        ({"inputs": [f"p1 stop{RLO}"]}, "input 0"),
    ]:
        response = await client.post(
            "/records",
            json={"command_id": "imp", "record": {**record, **bad}},
            headers=bearer(organiser_token),
        )
        assert response.status_code == 422, response.text
        body = response.json()
        assert body["type"].endswith("/malformed-record") and body["field"] == "record", body
        assert words in body["detail"], body
    for members, field in [
        ([{"member_id": f"a{i}", "name": f"N{NUL}"} for i in range(4)], "members[0].name"),
        ([{"member_id": f"a{i}", "name": "N"} for i in range(101)], "members"),
    ]:
        response = await client.post(
            "/records",
            json={"command_id": "imp", "record": record, "members": members},
            headers=bearer(organiser_token),
        )
        refused(response, field)
    refused(
        await client.post(
            "/records",
            json={"command_id": "imp", "record": record, "game_id": f"g{NUL}"},
            headers=bearer(organiser_token),
        ),
        "game_id",
    )
    assert await stored(pool) == before


# --- GraphQL: every argument bounded; the error names the argument and the rule --------------


async def graphql_query(client: httpx.AsyncClient, query: str) -> dict[str, Any]:
    response = await client.post("/graphql", json={"query": query})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


async def graphql_error(client: httpx.AsyncClient, query: str) -> dict[str, Any]:
    answer = await graphql_query(client, query)
    assert answer.get("errors"), answer
    error: dict[str, Any] = answer["errors"][0]
    return error


def names(error: dict[str, Any], argument: str, *rule: str) -> None:
    assert error["message"].startswith(f"`{argument}`: "), error
    assert error["extensions"]["field"] == argument, error
    for words in rule:
        assert words in error["message"], error


@pytest.mark.parametrize(
    ("query", "argument", "rule"),
    [
        ("{ ratingLeaderboard(limit: 2000000000, offset: 0) { rank } }", "limit", "<= 500"),
        ("{ ratingLeaderboard(limit: 10, offset: -5) { rank } }", "offset", ">= 0"),
        ("{ ratingLeaderboard(limit: 0) { rank } }", "limit", ">= 1"),
        ('{ ratingLeaderboard(leagueId: "demo\\u0000x") { rank } }', "leagueId", "letters, digits"),
        ('{ playerRating(memberId: "m\\u202e1") { rating } }', "memberId", "letters, digits"),
        ("{ ratingOffsets(players: 2000000000) { offset } }", "players", "<= 8"),
        ('{ leagueStandings(leagueId: "demo\\u0000") { position } }', "leagueId", "letters, digits"),
        ('{ leagueStandings(leagueId: "demo", seasonId: "\\u001b[31m") { position } }', "seasonId", ""),
        ('{ leagueTournament(leagueId: "demo", tournamentId: "t\\n") { name } }', "tournamentId", ""),
        (
            '{ leagueHeadToHead(leagueId: "demo", memberId: "m1", opponentId: "x\\u0000") { games } }',
            "opponentId",
            "",
        ),
        ('{ game(id: "g\\u0000") { version } }', "id", "letters, digits and _ . : -"),
        ('{ gameEvents(id: "g", fromVersion: -5) { version } }', "fromVersion", ">= 1"),
        ('{ gameEvents(id: "g", limit: 2000000000) { version } }', "limit", "<= 1000"),
        ('{ gameAt(id: "g", version: 0) { version } }', "version", ">= 1"),
        ('{ audit(id: "%s") { clean } }' % ("g" * 101), "id", "length <= 100"),
    ],
)
async def test_graphql_arguments_out_of_bounds_are_refused_by_name(
    client: httpx.AsyncClient, query: str, argument: str, rule: str
) -> None:
    names(await graphql_error(client, query), argument, rule)


async def test_a_leaderboard_page_within_bounds_still_answers(client: httpx.AsyncClient) -> None:
    answer = await graphql_query(client, "{ ratingLeaderboard(limit: 500, offset: 1000000) { rank } }")
    assert answer == {"data": {"ratingLeaderboard": []}}
