"""UA4 over the API (PostgreSQL, the real app): online games with the zombie outbreak played to
the end by their seated players, the server's rolls and Boneyard reveals drawn from the committed
seed (``draws-1``, deck ``boneyard-1``); the record names the draw derivation and the audit
re-derives every reveal."""

from __future__ import annotations

import random
from typing import Any

import httpx
from litestar import Litestar

from tests.integration.api.bots import bearer, play_to_the_end, player_tokens
from tests.integration.api.test_rulesets import online


async def _events(client: httpx.AsyncClient, game_id: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    page: list[dict[str, Any]] = [{"version": 0}]
    while page:  # the feed, page by page
        after = page[-1]["version"] + 1
        page = (await client.get(f"/games/{game_id}/events", params={"from_version": after})).json()
        events += page
    return events


async def test_online_games_with_the_boneyard_reveal_from_the_seed_and_audit_clean(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    revealed = 0
    for n in range(4):
        game_id = f"ua4-{n}"
        created = await client.post(
            "/games", json=online(6, ["UA4"], game_id), headers=bearer(organiser_token)
        )
        assert created.status_code == 201, created.text
        state = created.json()["state"]
        assert state["fairness"] == "deal-2 dice-2 draws-1"
        assert state["ruleset"]["data"]["boneyard"] == "boneyard-1"
        assert state["boneyard"] == {"deck": "boneyard-1", "pile": 11, "face_up": []}
        assert state["outbreak_turn"] is None
        assert {(p["zombie"], p["zombie_master"]) for p in state["players"]} == {(False, False)}
        tokens = await player_tokens(app, created.json())
        final = await play_to_the_end(client, game_id, tokens, random.Random(20 + n))
        assert final["status"] == "ended"
        events = await _events(client, game_id)
        face_up = final["boneyard"]["face_up"]
        if final["outbreak_turn"] is None:  # the cards face up are those revealed, less no-hands ones
            shown = [e["data"]["card"] for e in events if e["type"] == "BoneyardRevealed"]
            assert set(face_up) <= set(shown) and final["boneyard"]["pile"] == 11 - len(face_up)
        else:  # the Boneyard left the game; every zombie is in the view
            assert face_up == [] and final["boneyard"]["pile"] == 0
            assert any(p["zombie"] for p in final["players"])
        reveals = [e for e in events if e["type"] == "BoneyardRevealed"]
        revealed += len(reveals)
        record = (await client.get(f"/games/{game_id}/record")).json()
        assert record["options"]["fairness"]["draws"] == "draws-1"
        drawn = [i for i in record["inputs"] if isinstance(i, str) and i.split()[1] == "draw"]
        assert [i.split()[2] for i in drawn] == [e["data"]["card"] for e in reveals]
        # GraphQL reads the same seats (a UA4 seat once failed to read as a GamePlayer)
        query = "query($id: ID!) { game(id: $id) { players { id alive zombie zombieMaster } } }"
        answer = await client.post("/graphql", json={"query": query, "variables": {"id": game_id}})
        assert answer.status_code == 200 and "errors" not in answer.json(), answer.text
        assert [
            (p["id"], p["zombie"], p["zombieMaster"]) for p in answer.json()["data"]["game"]["players"]
        ] == [(p["id"], p["zombie"], p["zombie_master"]) for p in final["players"]]
        audit = (await client.get(f"/games/{game_id}/audit")).json()
        assert audit["clean"], audit["verdict"]
        if reveals:
            rolls = next(c for c in audit["checks"] if c["name"] == "rolls")["detail"]
            assert "draws re-derived (draws-1): every card matches" in rolls
    assert revealed, "no Boneyard card was revealed in four online games"
