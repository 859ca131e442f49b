"""A card game's record imported over HTTP (``POST /records``) as a dice record is: told apart
by its ``format`` (``read_any_record``), replayed in memory first, then entered input by input
by the importing organiser; refusals name the fault and store nothing."""

from __future__ import annotations

import json
from typing import Any

import httpx

from services.game.records.cards import write_card_record
from tests.integration.api.bots import bearer
from tests.integration.api.test_errors import problem
from tests.unit.game.cards.test_properties import random_game


def a_finished_card_record(seed: int, players: int = 4) -> dict[str, Any]:
    game, _ = random_game(seed, players)
    assert game.is_over
    record: dict[str, Any] = json.loads(write_card_record(game))
    return record


async def test_a_card_record_is_imported_exported_and_audited(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    record = a_finished_card_record(21)
    members = [{"member_id": f"club-{i}", "name": f"Player {i}"} for i in range(len(record["seats"]))]
    body = {"command_id": "import-c", "record": record, "members": members, "game_id": "card-night"}
    problem(await client.post("/records", json=body), 401, "unauthenticated")  # the same authorisation
    imported = await client.post("/records", json=body, headers=bearer(organiser_token))
    assert imported.status_code == 201, imported.text
    assert imported.json()["inputs"] == len(record["inputs"]) + 1  # the first shuffle, then the inputs
    state = (await client.get("/games/card-night")).json()
    assert state["game_type"] == "cards" and state["mode"] == "table" and state["status"] == "ended"
    assert [p["member_id"] for p in state["players"]] == [m["member_id"] for m in members]
    exported = (await client.get("/games/card-night/record")).json()
    assert exported["format"] == "bang-cards-record"
    assert exported["deck"] == record["deck"] and exported["inputs"] == record["inputs"]
    assert exported["seats"] == record["seats"]
    audit = (await client.get("/games/card-night/audit")).json()
    assert audit["clean"], audit["verdict"]
    again = await client.post("/records", json=body, headers=bearer(organiser_token))  # a retry
    assert again.status_code == 201 and again.json()["version"] == imported.json()["version"]


async def test_a_malformed_or_illegal_card_record_is_refused_naming_the_fault(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    record = a_finished_card_record(22)

    async def refused(bad: dict[str, Any], slug: str) -> dict[str, Any]:
        answer = await client.post(
            "/records",
            json={"command_id": f"bad-{slug}", "record": bad, "game_id": "bad-cards"},
            headers=bearer(organiser_token),
        )
        body = problem(answer, 422, slug)
        problem(await client.get("/games/bad-cards"), 404, "game-not-found")  # nothing stored
        return body

    short = {**record, "deck": record["deck"][:-1]}  # 79 cards: one is missing
    assert "$.deck" in (await refused(short, "malformed-record"))["detail"]
    garbled = {**record, "inputs": [*record["inputs"][:3], "p1 juggle 5", *record["inputs"][4:]]}
    assert "input 3 ('p1 juggle 5')" in (await refused(garbled, "malformed-record"))["detail"]
    # an input the rules refuse: a seat that is not awaited ends its play
    awaited = record["inputs"][0].split()[0]
    other = next(s["player"] for s in record["seats"] if s["player"] != awaited)
    illegal = {**record, "inputs": [f"{other} end", *record["inputs"][1:]]}
    body = await refused(illegal, "illegal-input")
    assert body["input"] == 0 and f"input 0 ('{other} end')" in body["detail"], body
