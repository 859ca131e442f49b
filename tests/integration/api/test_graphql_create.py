"""Creating a game over GraphQL (``createGame``): REST's fields and checks on the other channel,
authorised as REST is, refusals carrying REST's problem details; nothing stored when refused."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from litestar import Litestar

from services.game.rules.dice import modules as dice_modules
from services.game.rules.ruleset import ModuleId
from tests.integration.api.bots import bearer
from tests.integration.api.conftest import resources_of
from tests.integration.api.test_errors import problem

CREATE = """
mutation Create($input: CreateGameInput!) {
  createGame(input: $input) {
    gameId version
    game { id mode status playerCount gameType ruleset { modules text } fairness joined { memberId }
           players { id role character } }
  }
}
"""
MEMBERS = [{"memberId": f"m{i}", "name": f"Bot {i}"} for i in range(1, 6)]
SEATS = [
    {"memberId": "ann", "name": "Ann", "role": "sheriff", "character": "paul_regret"},
    {"memberId": "bob", "name": "Bob", "role": "outlaw", "character": "el_gringo"},
    {"memberId": "cy", "name": "Cy", "role": "outlaw", "character": "black_jack"},
    {"memberId": "dee", "name": "Dee", "role": "renegade", "character": "lucky_duke"},
]


async def create(client: httpx.AsyncClient, given: dict[str, Any], token: str | None) -> dict[str, Any]:
    headers = {} if token is None else bearer(token)
    asked = {"query": CREATE, "variables": {"input": given}}
    response = await client.post("/graphql", json=asked, headers=headers)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def refusal(body: dict[str, Any]) -> dict[str, Any]:
    assert body["data"] is None, body
    [error] = body["errors"]
    problem_details: dict[str, Any] = error["extensions"]["problem"]
    return problem_details


async def test_an_organiser_creates_an_online_game_with_modules_and_a_table_game(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    given = {
        "commandId": "gql-1",
        "mode": "online",
        "playerCount": 5,
        "members": MEMBERS[:2],
        "gameId": "gql-online",
    }
    body = await create(client, given, organiser_token)
    created = body["data"]["createGame"]
    assert created["gameId"] == "gql-online" and created["version"] == 3
    assert set(created) == {"gameId", "version", "game"}  # no player tokens: each plays as themselves
    game = created["game"]
    assert game["status"] == "lobby" and game["ruleset"] == {"modules": [], "text": "dice"}
    assert [j["memberId"] for j in game["joined"]] == ["m1", "m2"]
    # the same game on REST, and a retry answers with it
    state = (await client.get("/games/gql-online")).json()
    assert state["joined"] == [{"member_id": "m1", "name": "Bot 1"}, {"member_id": "m2", "name": "Bot 2"}]
    again = await create(client, given, organiser_token)
    assert again["data"]["createGame"]["gameId"] == "gql-online"

    table = {"commandId": "gql-2", "mode": "table", "playerCount": 4, "seats": SEATS, "gameId": "gql-table"}
    game = (await create(client, table, organiser_token))["data"]["createGame"]["game"]
    assert game["status"] == "ongoing" and [p["character"] for p in game["players"]] == [
        "paul_regret",
        "el_gringo",
        "black_jack",
        "lucky_duke",
    ]
    # the scorekeeper who entered the seats sees every role
    assert [p["role"] for p in game["players"]] == ["sheriff", "outlaw", "outlaw", "renegade"]


async def test_a_refused_module_combination_names_why_as_rest_does_and_stores_nothing(
    client: httpx.AsyncClient, organiser_token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every module is registered by now: this server lacks one for the test's sake
    monkeypatch.delitem(dice_modules._REGISTERED, ModuleId.UA4)
    for modules, why in (
        (["UA1"], "module UA1 needs UA2"),
        (["UA4"], "module UA4 (Undead or Alive?) is not implemented by this server yet"),
        (["OS9"], "unknown module 'OS9' (known: OS1, OS2, OS3, OS4, OS5, UA1, UA2, UA3, UA4, UA5)"),
    ):
        given = {
            "commandId": "gql-refused",
            "mode": "online",
            "playerCount": 5,
            "members": MEMBERS,
            "gameId": "gql-refused",
            "ruleset": {"modules": modules},
        }
        refused = refusal(await create(client, given, organiser_token))
        rest_body = {"command_id": "r", "mode": "online", "player_count": 5, "ruleset": {"modules": modules}}
        answer = await client.post("/games", json=rest_body, headers=bearer(organiser_token))
        rest = problem(answer, 422, "invalid-ruleset")
        assert refused["status"] == 422 and refused["type"] == rest["type"]
        assert refused["detail"] == rest["detail"] == f"this ruleset cannot be played: {why}"
    problem(await client.get("/games/gql-refused"), 404, "game-not-found")


async def test_a_table_seat_outside_the_pool_and_an_input_out_of_bounds_are_refused_naming_them(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    seats = [{**SEATS[0], "character": "jose_delgado"}, *SEATS[1:]]
    given = {"commandId": "gql-3", "mode": "table", "playerCount": 4, "seats": seats, "gameId": "gql-pool"}
    refused = refusal(await create(client, given, organiser_token))
    assert refused["status"] == 422 and refused["type"].endswith("/invalid-game")
    assert "p1: jose_delgado is not a character of dice" in refused["detail"]

    too_many = {"commandId": "gql-4", "mode": "online", "playerCount": 1_000_000, "gameId": "gql-bounds"}
    body = await create(client, too_many, organiser_token)
    refused = refusal(body)
    assert refused["status"] == 400 and refused["type"].endswith("/invalid-request")
    assert body["errors"][0]["extensions"]["field"] == "input.playerCount"
    for game_id in ("gql-pool", "gql-bounds"):
        problem(await client.get(f"/games/{game_id}"), 404, "game-not-found")


async def test_a_foreign_or_absent_caller_cannot_create(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    player_token = await resources_of(app).gateway.tokens.issue_player("some-game", "m1")
    given = {"commandId": "gql-5", "mode": "online", "playerCount": 4, "gameId": "gql-auth"}
    absent = refusal(await create(client, given, None))
    assert absent["status"] == 401 and absent["type"].endswith("/unauthenticated")
    foreign = refusal(await create(client, given, player_token))
    assert foreign["status"] == 403 and foreign["type"].endswith("/forbidden")
    problem(await client.get("/games/gql-auth"), 404, "game-not-found")


async def test_an_eight_player_card_game_is_created_with_its_option_and_refused_without_it(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    members = [{"memberId": f"c{i}", "name": f"Card {i}"} for i in range(1, 9)]
    given = {"commandId": "gql-cards-8", "mode": "online", "playerCount": 8, "members": members}
    without = refusal(await create(client, {**given, "ruleset": {"gameType": "cards"}}, organiser_token))
    assert without["status"] == 422 and without["detail"].endswith(
        "name the option (ruleset 'cards eight_players')"
    )
    ruleset = {"gameType": "cards", "options": ["eight_players"]}
    body = await create(client, {**given, "ruleset": ruleset}, organiser_token)
    game = body["data"]["createGame"]["game"]
    assert game["gameType"] == "cards" and game["ruleset"]["text"] == "cards eight_players"
    assert game["playerCount"] == 8
    # an option is the card game's alone
    dice = {**given, "commandId": "gql-dice-8", "ruleset": {"options": ["eight_players"]}}
    assert refusal(await create(client, dice, organiser_token))["detail"].endswith(
        "the dice game has no options (only modules)"
    )
