"""Bad input gets a clear 4xx problem-details answer naming the field or the rule, nothing is
appended, and no answer gives away a hidden role or the dice seed."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from litestar import Litestar

from services.game.application.service import SYSTEM
from tests.integration.api.bots import bearer, create_online_game, player_tokens
from tests.integration.api.conftest import SMALL_BODY_LIMIT, resources_of
from tests.integration.api.people import people

HIDDEN_ROLE_WORDS = ("deputy", "outlaw", "renegade")

TABLE_SEATS = [
    {"member_id": "ann", "name": "Ann", "role": "sheriff", "character": "paul_regret"},
    {"member_id": "bob", "name": "Bob", "role": "renegade", "character": "willy_the_kid"},
    {"member_id": "cat", "name": "Cat", "role": "outlaw", "character": "black_jack"},
    {"member_id": "dan", "name": "Dan", "role": "outlaw", "character": "lucky_duke"},
]


def problem(response: httpx.Response, status: int, slug: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["status"] == status and body["type"].endswith(f"/{slug}"), body
    assert body["detail"] and body["title"]
    return body


@pytest.fixture
async def online(app: Litestar, client: httpx.AsyncClient, organiser_token: str) -> dict[str, Any]:
    created = await create_online_game(client, organiser_token, players=4)
    tokens = await player_tokens(app, created)
    state = created["state"]
    awaited_seat = state["awaiting"]["player"]
    seat_member = {p["id"]: p["member_id"] for p in state["players"]}
    other_seat = next(s for s in seat_member if s != awaited_seat)
    return {
        **created,
        "awaited_seat": awaited_seat,
        "awaited_token": tokens[seat_member[awaited_seat]],
        "other_seat": other_seat,
        "other_token": tokens[seat_member[other_seat]],
    }


async def test_refusals_are_problem_details_and_append_nothing(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str, online: dict[str, Any]
) -> None:
    game_id, version = online["game_id"], online["version"]
    commands = f"/games/{game_id}/commands"
    awaited, other = online["awaited_seat"], online["other_seat"]
    bodies: list[str] = []

    async def post(body: Any, token: str | None, url: str = commands, **kwargs: Any) -> httpx.Response:
        headers = {} if token is None else bearer(token)
        if isinstance(body, (bytes, str)):
            response = await client.post(
                url, content=body, headers={**headers, "content-type": "application/json"}
            )
        else:
            response = await client.post(url, json=body, headers=headers, **kwargs)
        bodies.append(response.text)
        return response

    # who: no token, a token nobody issued, a malformed header, another game's player token
    body = problem(
        await post({"command": f"{awaited} stop", "command_id": "a"}, None), 401, "unauthenticated"
    )
    assert "Bearer <token>" in body["detail"]
    anonymous = await client.post(commands, json={"command": f"{awaited} stop", "command_id": "a"})
    assert anonymous.headers["www-authenticate"].startswith("Bearer")
    problem(
        await post({"command": f"{awaited} stop", "command_id": "a"}, "not-a-real-token"),
        401,
        "unauthenticated",
    )
    response = await client.post(
        commands, json={"command": f"{awaited} stop", "command_id": "a"}, headers={"Authorization": "Basic x"}
    )
    bodies.append(response.text)
    problem(response, 401, "unauthenticated")
    other_game = await create_online_game(client, organiser_token, players=3, command_id="other-game")
    stranger = next(iter((await player_tokens(app, other_game)).values()))
    body = problem(await post({"command": f"{awaited} stop", "command_id": "a"}, stranger), 403, "forbidden")
    assert "another game" in body["detail"]

    # whose turn: someone else's seat (403), not awaited now (409)
    body = problem(
        await post({"command": f"{other} stop", "command_id": "b"}, online["awaited_token"]), 403, "forbidden"
    )
    assert f"cannot act for {other}" in body["detail"]
    body = problem(
        await post({"command": f"{other} stop", "command_id": "c"}, online["other_token"]), 409, "not-awaited"
    )
    assert "cannot act now" in body["detail"] and body["field"] == "command"

    # what: unreadable command text, an unknown command object type, an unknown field in one
    body = problem(
        await post({"command": f"{awaited} fly", "command_id": "d"}, online["awaited_token"]),
        422,
        "malformed-command",
    )
    assert "unknown or incomplete command" in body["detail"]
    body = problem(
        await post(
            {"command": {"type": "Fly", "player": awaited}, "command_id": "e"}, online["awaited_token"]
        ),
        422,
        "malformed-command",
    )
    assert "`command.type` must be one of" in body["detail"]
    body = problem(
        await post(
            {"command": {"type": "StopRolling", "player": awaited, "x": 1}, "command_id": "f"},
            online["awaited_token"],
        ),
        422,
        "malformed-command",
    )
    assert "unknown field(s)" in body["detail"] and "x" in body["detail"]

    # the request itself: malformed JSON, unknown and missing fields, a body over the limit
    problem(await post(b'{"command": "p1 stop", "command_id": ', online["awaited_token"]), 400, "bad-request")
    body = problem(
        await post(
            {"command": f"{awaited} stop", "command_id": "g", "colour": "red"}, online["awaited_token"]
        ),
        400,
        "invalid-request",
    )
    assert "colour" in body["detail"]
    body = problem(
        await post({"command": f"{awaited} stop"}, online["awaited_token"]), 400, "invalid-request"
    )
    assert "command_id" in body["detail"]
    body = problem(
        await post({"command": f"{awaited} stop", "command_id": ""}, online["awaited_token"]),
        400,
        "invalid-request",
    )
    assert "command_id" in body["detail"]
    huge = {"command": f"{awaited} stop", "command_id": "h" * (SMALL_BODY_LIMIT + 10)}
    problem(await post(huge, online["awaited_token"]), 413, "body-too-large")

    # when: a stale expected_version
    body = problem(
        await post(
            {"command": f"{awaited} stop", "command_id": "i", "expected_version": version - 1},
            online["awaited_token"],
        ),
        409,
        "stale-version",
    )
    assert body["expected_version"] == version - 1 and body["current_version"] == version

    # where: no such game
    problem(await client.get("/games/no-such-game"), 404, "game-not-found")
    problem(
        await post(
            {"command": "p1 stop", "command_id": "j"}, organiser_token, url="/games/no-such-game/commands"
        ),
        404,
        "game-not-found",
    )
    problem(await client.get("/games/bad%20id/events"), 404, "game-not-found")
    problem(await client.get(f"/games/{game_id}/versions/{version + 5}"), 422, "version-out-of-range")
    problem(await client.get(f"/games/{game_id}/events?from_version=0"), 400, "invalid-request")

    # nothing was appended by any of it
    current = await client.get(f"/games/{game_id}")
    assert current.json()["version"] == version

    # and no refusal gave away a hidden role or the seed
    seed = await resources_of(app).pool.fetchval("SELECT seed FROM game_seeds WHERE game_id = $1", game_id)
    for text in bodies:
        assert bytes(seed).hex() not in text
        assert not any(word in text for word in HIDDEN_ROLE_WORDS), text


async def test_a_finished_game_takes_no_more_commands(
    app: Litestar, client: httpx.AsyncClient, online: dict[str, Any]
) -> None:
    game_id = online["game_id"]
    await resources_of(app).gateway.service.abandon(
        game_id, "the club closed", actor=SYSTEM, command_id="close"
    )
    body = problem(
        await client.post(
            f"/games/{game_id}/commands",
            json={"command": f"{online['awaited_seat']} stop", "command_id": "late"},
            headers=bearer(online["awaited_token"]),
        ),
        409,
        "game-finished",
    )
    assert "is over" in body["detail"]


async def test_only_organisers_create_games(client: httpx.AsyncClient, online: dict[str, Any]) -> None:
    spec = {"command_id": "new", "mode": "online", "player_count": 4}
    problem(await client.post("/games", json=spec), 401, "unauthenticated")
    problem(await client.post("/games", json=spec, headers=bearer(online["awaited_token"])), 403, "forbidden")


async def test_a_game_that_cannot_be_is_refused_by_the_rule(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    body = problem(
        await client.post(
            "/games",
            json={"command_id": "big", "mode": "online", "player_count": 9},
            headers=bearer(organiser_token),
        ),
        422,
        "invalid-game",
    )
    assert "3 to 8 players" in body["detail"]
    body = problem(
        await client.post(
            "/games",
            json={"command_id": "mode", "mode": "cards", "player_count": 4},
            headers=bearer(organiser_token),
        ),
        400,
        "invalid-request",
    )
    assert "mode" in body["detail"]


async def test_a_table_game_is_entered_by_its_scorekeeper_and_illegal_moves_name_the_rule(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await client.post(
        "/games",
        json={"command_id": "table", "mode": "table", "player_count": 4, "seats": TABLE_SEATS},
        headers=bearer(organiser_token),
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    # the scorekeeper sees the roles they entered; anybody else sees the Sheriff's only
    assert [p["role"] for p in created.json()["state"]["players"]] == [s["role"] for s in TABLE_SEATS]
    public = (await client.get(f"/games/{game_id}")).json()
    assert [p["role"] for p in public["players"]] == ["sheriff", None, None, None]

    async def enter(command: str | dict[str, Any], command_id: str) -> httpx.Response:
        return await client.post(
            f"/games/{game_id}/commands",
            json={"command": command, "command_id": command_id},
            headers=bearer(organiser_token),
        )

    rolled = await enter(
        {"type": "RollDice", "player": "p1", "faces": ["beer", "dynamite", "shoot1", "arrow", "gatling"]},
        "r1",
    )
    assert rolled.status_code == 200, rolled.text
    assert rolled.json()["state"]["dice"] == ["beer", "dynamite", "shoot1", "arrow", "gatling"]
    version = rolled.json()["version"]
    body = problem(await enter("p1 reroll 1", "r2"), 422, "illegal-command")
    assert body["detail"] == "die 2 shows dynamite and cannot be rerolled"  # index 1, the second die
    body = problem(await enter("p1 reroll 9", "r3"), 422, "malformed-command")
    assert body["detail"].endswith("there is no die 10; dice are 1 to 5")  # people count dice from 1
    assert (await client.get(f"/games/{game_id}")).json()["version"] == version
    # the same command id twice plays once
    first, again = await enter("p1 stop", "r4"), await enter("p1 stop", "r4")
    assert first.status_code == again.status_code == 200
    assert again.json()["duplicate"] and again.json()["version"] == first.json()["version"]


async def test_joining_a_lobby_hands_out_a_player_token(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await client.post(
        "/games",
        json={
            "command_id": "lobby",
            "mode": "online",
            "player_count": 3,
            "members": [{"member_id": "m1", "name": "A"}],
        },
        headers=bearer(organiser_token),
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    assert created.json()["state"]["status"] == "lobby"
    bea, cat, dan, eve = await people(app, client, "Bea", "Cat", "Dan", "Eve")
    joins = f"/games/{game_id}/players"
    problem(await client.post(joins, json={"command_id": "j2"}), 401, "unauthenticated")
    second = await client.post(joins, json={"command_id": "j2"}, headers=bea.auth)
    assert second.status_code == 201, second.text
    assert second.json()["member_id"] == bea.account_id
    problem(await client.post(joins, json={"command_id": "j2b"}, headers=bea.auth), 422, "invalid-game")
    third = await client.post(joins, json={"command_id": "j3", "member_id": cat.account_id}, headers=cat.auth)
    assert third.json()["state"]["status"] == "ongoing"
    problem(await client.post(joins, json={"command_id": "j4"}, headers=dan.auth), 422, "invalid-game")
    # a retried join changes nothing and issues no second token: a command id is no credential
    problem(await client.post(joins, json={"command_id": "j3"}, headers=cat.auth), 409, "already-joined")
    # another member under that id: refused as any join of a started game is
    problem(await client.post(joins, json={"command_id": "j3"}, headers=eve.auth), 422, "invalid-game")
    for token in (third.json()["token"], cat.token):  # the join's token, or the account itself
        mine = (await client.get(f"/games/{game_id}", headers=bearer(token))).json()
        assert [p["role"] is not None for p in mine["players"] if p["member_id"] == cat.account_id] == [True]
