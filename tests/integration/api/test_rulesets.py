"""Rulesets over the API: a module set the rules refuse, or this server does not play yet, is a
422 naming why and stores nothing; a game shows its ruleset and derivations on REST, GraphQL,
the event feed, its record (format 2) and its audit."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from litestar import Litestar

from services.game.rules.dice import modules as dice_modules
from services.game.rules.ruleset import ModuleId
from tests.integration.api.bots import bearer, play_to_the_end, player_tokens
from tests.integration.api.test_errors import problem
from tests.integration.api.test_records import a_finished_table_game

BASE_DATA = {"characters": "dice-base-1", "dice": "dice-base-1"}
MEMBERS = [{"member_id": f"m{i}", "name": f"Bot {i}"} for i in range(1, 9)]
TABLE_SEATS = [
    {"member_id": "ann", "name": "Ann", "role": "sheriff", "character": "paul_regret"},
    {"member_id": "bob", "name": "Bob", "role": "outlaw", "character": "el_gringo"},
    {"member_id": "cy", "name": "Cy", "role": "outlaw", "character": "black_jack"},
    {"member_id": "dee", "name": "Dee", "role": "renegade", "character": "lucky_duke"},
]


def online(players: int, modules: list[str], game_id: str) -> dict[str, Any]:
    return {
        "command_id": f"create-{game_id}",
        "mode": "online",
        "player_count": players,
        "members": MEMBERS[:players],
        "game_id": game_id,
        "ruleset": {"modules": modules},
    }


@pytest.mark.parametrize(
    ("players", "modules", "why"),
    [
        (5, ["UA1"], "module UA1 needs UA2"),
        (4, ["OS5"], "the Ghost (OS5) needs 5 or more players"),
        (3, ["UA4"], "the zombie outbreak (UA4) needs 4 or more players"),
        (5, ["OS9"], "unknown module 'OS9' (known: OS1, OS2, OS3, OS4, OS5, UA1, UA2, UA3, UA4, UA5)"),
        (5, ["OS2", "OS2"], "module OS2 is named twice"),
    ],
)
async def test_a_refused_ruleset_is_a_422_naming_why_and_nothing_is_stored(
    client: httpx.AsyncClient, organiser_token: str, players: int, modules: list[str], why: str
) -> None:
    asked = online(players, modules, "refused")
    response = await client.post("/games", json=asked, headers=bearer(organiser_token))
    body = problem(response, 422, "invalid-ruleset")
    assert body["detail"] == f"this ruleset cannot be played: {why}"
    assert body["field"] == "ruleset"
    problem(await client.get("/games/refused"), 404, "game-not-found")
    table = {"command_id": "t", "mode": "table", "player_count": 4, "seats": TABLE_SEATS}
    if players == 4:
        refused = await client.post(
            "/games",
            json={**table, "game_id": "refused", "ruleset": {"modules": modules}},
            headers=bearer(organiser_token),
        )
        assert problem(refused, 422, "invalid-ruleset")["detail"].endswith(why)
        problem(await client.get("/games/refused"), 404, "game-not-found")


async def test_an_online_game_shows_its_ruleset_and_derivations_everywhere(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await client.post("/games", json=online(4, [], "base-1"), headers=bearer(organiser_token))
    assert created.status_code == 201, created.text
    state = created.json()["state"]
    assert state["game_type"] == "dice" and state["fairness"] == "deal-1 dice-1"
    assert state["ruleset"] == {"modules": [], "data": BASE_DATA, "text": "dice"}
    first = (await client.get("/games/base-1/events", params={"limit": 1})).json()
    assert first[0]["type"] == "GameCreated"
    assert first[0]["data"]["ruleset"]["modules"] == [] and first[0]["data"]["fairness"] == {
        "deal": "deal-1",
        "dice": "dice-1",
    }
    query = 'query { game(id: "base-1") { gameType fairness ruleset { modules text data } } }'
    graphql = (await client.post("/graphql", json={"query": query})).json()
    assert graphql["data"]["game"] == {
        "gameType": "dice",
        "fairness": "deal-1 dice-1",
        "ruleset": {"modules": [], "text": "dice", "data": BASE_DATA},
    }

    await play_to_the_end(client, "base-1", await player_tokens(app, created.json()), random.Random(5))
    record = (await client.get("/games/base-1/record")).json()
    assert record["version"] == 2 and record["game_type"] == "dice"
    assert record["ruleset"]["modules"] == []
    assert record["options"]["dice"] == "seeded"
    assert record["options"]["fairness"] == {"deal": "deal-1", "dice": "dice-1"}
    audit = (await client.get("/games/base-1/audit")).json()
    assert audit["clean"], audit["verdict"]
    assert audit["ruleset"] == "dice" and audit["derivations"] == "deal-1 dice-1"
    assert "(deal-1)" in next(c for c in audit["checks"] if c["name"] == "deal")["detail"]
    assert "(dice-1)" in next(c for c in audit["checks"] if c["name"] == "rolls")["detail"]


async def test_a_table_game_has_a_ruleset_and_no_derivations(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    table = {"command_id": "t", "mode": "table", "player_count": 4, "seats": TABLE_SEATS, "game_id": "club-2"}
    created = await client.post(
        "/games", json={**table, "ruleset": {"modules": []}}, headers=bearer(organiser_token)
    )
    assert created.status_code == 201, created.text
    assert created.json()["state"]["ruleset"]["text"] == "dice"
    assert created.json()["state"]["fairness"] is None
    audit = (await client.get("/games/club-2/audit")).json()
    assert audit["ruleset"] == "dice" and audit["derivations"] is None


async def test_a_record_import_refuses_a_ruleset_naming_why_and_stores_nothing(
    client: httpx.AsyncClient, organiser_token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every module is registered by now: this server lacks one for the test's sake
    monkeypatch.delitem(dice_modules._REGISTERED, ModuleId.UA4)
    record = a_finished_table_game(seed=3)
    assert record["version"] == 2 and record["ruleset"]["modules"] == []

    async def imported(ruleset: dict[str, Any], game_id: str) -> httpx.Response:
        changed = {**record, "ruleset": ruleset}
        body = {"command_id": f"import-{game_id}", "record": changed, "game_id": game_id}
        return await client.post("/records", json=body, headers=bearer(organiser_token))

    refused = problem(await imported({"modules": ["UA1"]}, "rec-ua1"), 422, "malformed-record")
    assert refused["detail"] == "record: `$.ruleset`: module UA1 needs UA2"
    problem(await client.get("/games/rec-ua1"), 404, "game-not-found")
    later = problem(await imported({"modules": ["UA4"]}, "rec-ua4"), 422, "invalid-ruleset")
    assert later["detail"].endswith("module UA4 (Undead or Alive?) is not implemented by this server yet")
    problem(await client.get("/games/rec-ua4"), 404, "game-not-found")

    v1 = {k: v for k, v in record.items() if k not in ("game_type", "ruleset")} | {"version": 1}
    body = {"command_id": "import-v1", "record": v1, "game_id": "rec-v1"}
    done = await client.post("/records", json=body, headers=bearer(organiser_token))
    assert done.status_code == 201, done.text
    assert (await client.get("/games/rec-v1")).json()["ruleset"]["text"] == "dice"
    assert (await client.get("/games/rec-v1/record")).json()["version"] == 2
