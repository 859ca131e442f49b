"""Table games imported whole from their record, records exported by the export policy, audits."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
from litestar import Litestar

from services.game.application.lifecycle import seat_id
from services.game.records import record_from_events, record_to_object
from services.game.rules.dice import Decision, Game, Role, RollDice, Seat
from services.game.rules.dice.characters import CHARACTERS
from services.game.rules.dice.kinds import BASE
from tests.integration.api.bots import bearer, create_online_game, player_tokens
from tests.integration.api.test_errors import problem

ROLES = (Role.SHERIFF, Role.RENEGADE, Role.OUTLAW, Role.OUTLAW, Role.DEPUTY)


def a_finished_table_game(seed: int) -> dict[str, Any]:
    """A whole game played through the engine with random dice and choices, as a record."""
    rng = random.Random(seed)
    characters = rng.sample(list(CHARACTERS), len(ROLES))
    game = Game.start(
        [
            Seat(player=seat_id(i), role=r, character=c)
            for i, (r, c) in enumerate(zip(ROLES, characters, strict=True))
        ]
    )
    for _ in range(5_000):
        question = game.awaiting
        if question is None:
            break
        if question.decision is Decision.ROLL:
            game.play(
                RollDice(player=question.player, faces=tuple(rng.choice(BASE.faces) for _ in question.dice))
            )
        else:
            game.play(rng.choice(list(game.legal_commands())))
    assert game.is_over
    record: dict[str, Any] = json.loads(json.dumps(record_to_object(record_from_events(game.events))))
    return record


async def test_a_table_record_is_imported_exported_and_audited(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    record = a_finished_table_game(seed=11)
    members = [{"member_id": f"club-{i}", "name": f"Player {i}"} for i in range(len(ROLES))]
    imported = await client.post(
        "/records",
        json={"command_id": "import-1", "record": record, "members": members, "game_id": "club-night-1"},
        headers=bearer(organiser_token),
    )
    assert imported.status_code == 201, imported.text
    assert imported.json()["inputs"] == len(record["inputs"])
    state = (await client.get("/games/club-night-1")).json()
    assert state["status"] == "ended" and state["mode"] == "table"
    assert [p["member_id"] for p in state["players"]] == [m["member_id"] for m in members]
    assert [p["role"] for p in state["players"]] == [s["role"] for s in record["seats"]]  # the game is over

    exported = await client.get("/games/club-night-1/record")
    assert exported.status_code == 200, exported.text
    assert exported.json()["inputs"] == record["inputs"]
    assert exported.json()["seats"] == record["seats"]
    assert "options" not in exported.json()  # table dice are the default, and there is no seed

    audit = await client.get("/games/club-night-1/audit")
    assert audit.status_code == 200, audit.text
    assert audit.json()["clean"], audit.json()["verdict"]
    graphql = await client.post(
        "/graphql", json={"query": 'query { audit(id: "club-night-1") { clean checks { name passed } } }'}
    )
    assert graphql.json()["data"]["audit"]["clean"]

    # importing the same record with the same command id again is a retry, not a second game
    again = await client.post(
        "/records",
        json={"command_id": "import-1", "record": record, "members": members, "game_id": "club-night-1"},
        headers=bearer(organiser_token),
    )
    assert again.status_code == 201 and again.json()["version"] == imported.json()["version"]


async def test_a_record_with_an_illegal_input_is_refused_before_anything_is_stored(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    record = a_finished_table_game(seed=12)
    index = next(i for i, text in enumerate(record["inputs"]) if " reroll " in text)
    player = record["inputs"][index].split()[0]
    record["inputs"][index] = f"{player} decline"
    response = await client.post(
        "/records",
        json={"command_id": "bad", "record": record, "game_id": "bad-night"},
        headers=bearer(organiser_token),
    )
    body = problem(response, 422, "illegal-input")
    assert body["input"] == index and f"input {index} ('{player} decline')" in body["detail"]
    problem(await client.get("/games/bad-night"), 404, "game-not-found")

    record["format"] = "chess"
    body = problem(
        await client.post(
            "/records", json={"command_id": "worse", "record": record}, headers=bearer(organiser_token)
        ),
        422,
        "malformed-record",
    )
    assert "$.format" in body["detail"]


async def test_only_an_organiser_imports(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    record = a_finished_table_game(seed=13)
    problem(await client.post("/records", json={"command_id": "x", "record": record}), 401, "unauthenticated")
    online = await create_online_game(client, organiser_token, players=3)
    token = next(iter((await player_tokens(app, online)).values()))
    problem(
        await client.post("/records", json={"command_id": "x", "record": record}, headers=bearer(token)),
        403,
        "forbidden",
    )


async def test_an_ongoing_game_is_exported_only_to_who_sees_every_role(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    online = await create_online_game(client, organiser_token, players=4)
    game_id = online["game_id"]
    for token in (None, next(iter((await player_tokens(app, online)).values())), organiser_token):
        headers = {} if token is None else bearer(token)
        body = problem(await client.get(f"/games/{game_id}/record", headers=headers), 409, "export-refused")
        assert "hidden from you" in body["detail"]

    record = a_finished_table_game(seed=14)
    record["inputs"] = record["inputs"][:6]
    imported = await client.post(
        "/records",
        json={"command_id": "half", "record": record, "game_id": "half-night"},
        headers=bearer(organiser_token),
    )
    assert imported.status_code == 201, imported.text
    assert imported.json()["state"]["status"] == "ongoing"
    mine = await client.get("/games/half-night/record", headers=bearer(organiser_token))  # the scorekeeper
    assert mine.status_code == 200 and mine.json()["inputs"] == record["inputs"]
    problem(await client.get("/games/half-night/record"), 409, "export-refused")
