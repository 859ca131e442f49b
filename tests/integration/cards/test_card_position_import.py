"""A card record starting mid-turn with the deck's order unknown (issue 21 item 6), imported over
HTTP (``POST /records``): stored, exported back with the same position and inputs, and audited
clean; a position the rules could not reach is refused naming why, and nothing is stored."""

from __future__ import annotations

from typing import Any

import httpx

from tests.integration.api.bots import bearer
from tests.integration.api.test_errors import problem
from tests.unit.records.test_card_positions import MID_TURN, _record

INPUTS = ["p3 respond 27", "p2 end", "p3 draw-from deck", "table top 40", "table top 12"]


async def test_a_mid_turn_record_with_an_unknown_deck_is_imported_exported_and_audited(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    record: dict[str, Any] = _record(MID_TURN, INPUTS)
    members = [{"member_id": f"club-{i}", "name": f"Player {i}"} for i in range(len(record["seats"]))]
    body = {"command_id": "import-mid", "record": record, "members": members, "game_id": "mid-turn"}
    imported = await client.post("/records", json=body, headers=bearer(organiser_token))
    assert imported.status_code == 201, imported.text
    keeper = bearer(organiser_token)  # the table's keeper sees every card of an ongoing game
    state = (await client.get("/games/mid-turn", headers=keeper)).json()
    assert state["game_type"] == "cards" and state["status"] == "ongoing"
    exported = (await client.get("/games/mid-turn/record", headers=keeper)).json()
    assert exported.get("position") == MID_TURN and exported["inputs"] == INPUTS, exported
    audit = (await client.get("/games/mid-turn/audit")).json()
    assert audit["clean"], audit["verdict"]


async def test_a_position_the_rules_could_not_reach_is_refused_and_nothing_stored(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    bad = {**MID_TURN, "resolving": {"card": 3, "target": "p3", "responders": ["p1"]}}
    answer = await client.post(
        "/records",
        json={"command_id": "bad-mid", "record": _record(bad, INPUTS), "game_id": "bad-mid"},
        headers=bearer(organiser_token),
    )
    body = problem(answer, 422, "malformed-record")
    assert "bang:2D (card 3) could not be awaiting p1: it asks p3" in body["detail"]
    problem(await client.get("/games/bad-mid"), 404, "game-not-found")
