"""The game view of Undead or Alive's duels (UA1) over the API: every seat's wound tokens are public
(face up once drawn, RULINGS-expansions §UA1) and the tokens conserved with the pile's size; the
duel block names no token face down; a face-down Rage card (UA2) is named to its holder only, and
appears in no other viewer's answer, not even inside the public duel and wound-token fields."""

from __future__ import annotations

import json
import random

import httpx
from litestar import Litestar

from tests.integration.api.bots import bearer, play_to_the_end, player_tokens
from tests.integration.api.test_rulesets import online

WOUND_TOKENS = 15
SEATS_QUERY = "query($id: ID!) { game(id: $id) { players { id rageCount rageCards woundTokens } } }"


async def graphql_seats(client: httpx.AsyncClient, game_id: str, token: str | None) -> dict[str, object]:
    """The seats as GraphQL answers them to ``token``'s holder (anonymous without one)."""
    headers = bearer(token) if token is not None else {}
    body = {"query": SEATS_QUERY, "variables": {"id": game_id}}
    answer = await client.post("/graphql", json=body, headers=headers)
    assert answer.status_code == 200 and "errors" not in answer.json(), answer.text
    return {p["id"]: p for p in answer.json()["data"]["game"]["players"]}


async def test_wound_tokens_and_duels_are_public_while_rage_cards_stay_hidden(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await client.post(
        "/games", json=online(4, ["UA1", "UA2"], "ua-view"), headers=bearer(organiser_token)
    )
    assert created.status_code == 201, created.text
    start = created.json()["state"]
    assert start["duel"] == {
        "wound_pile": WOUND_TOKENS, "challenger": None, "target": None, "thrower": None, "challenged": [],
    }  # fmt: skip
    assert all(p["wound_tokens"] == [] for p in start["players"])
    tokens = await player_tokens(app, created.json())
    seen = {"held": 0, "hidden": 0}

    async def look(n: int) -> None:
        public = (await client.get("/games/ua-view")).json()
        held = sum(len(p["wound_tokens"]) for p in public["players"])
        assert held + public["duel"]["wound_pile"] == WOUND_TOKENS  # conserved, and all shown
        seen["held"] += held
        for p in public["players"]:
            assert len(set(p["wound_tokens"])) == len(p["wound_tokens"])  # one of each symbol
            if not p["rage_count"]:
                continue
            mine = (await client.get("/games/ua-view", headers=bearer(tokens[p["member_id"]]))).json()
            own = next(q for q in mine["players"] if q["id"] == p["id"])
            assert own["wound_tokens"] == p["wound_tokens"]  # the same for the holder and everyone
            other = next(m for m in tokens if m != p["member_id"])
            theirs = (await client.get("/games/ua-view", headers=bearer(tokens[other]))).json()
            for card in own["rage_cards"]:
                assert card not in public["rage"]["discard"]
                for answer in (public, theirs):
                    assert f'"{card}"' not in json.dumps(answer)  # named nowhere to anyone else
            # GraphQL says the same: the cards to their holder, the count and tokens to everyone
            held_by = await graphql_seats(client, "ua-view", tokens[p["member_id"]])
            assert held_by[p["id"]] == {
                "id": p["id"], "rageCount": p["rage_count"],
                "rageCards": own["rage_cards"], "woundTokens": p["wound_tokens"],
            }  # fmt: skip
            for viewer in (None, tokens[other]):
                seat = (await graphql_seats(client, "ua-view", viewer))[p["id"]]
                assert seat == {**held_by[p["id"]], "rageCards": None}
            seen["hidden"] += 1

    final = await play_to_the_end(client, "ua-view", tokens, random.Random(5), on_command=look)
    assert final["status"] == "ended"
    assert seen["held"], "no wound token was held while the game ran"
    assert seen["hidden"], "no face-down Rage card was held while the game ran"
    events: list[dict[str, object]] = (await client.get("/games/ua-view/events")).json()
    assert any(e["type"] == "WoundDrawn" for e in events)


async def test_a_game_without_duels_has_no_duel_fields(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    body = online(4, ["UA2"], "ua-rage-only")
    created = await client.post("/games", json=body, headers=bearer(organiser_token))
    assert created.status_code == 201, created.text
    state = created.json()["state"]
    assert "duel" not in state
    assert all("wound_tokens" not in p and p["rage_count"] == 0 for p in state["players"])
