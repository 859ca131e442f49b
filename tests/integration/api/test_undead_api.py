"""Undead or Alive over the API (PostgreSQL, the real app): an online game with duels and Rage
cards (UA1 + UA2) played to the end by its seated players, with the server's rolls and draws from
the committed seed; the face-down cards hidden from everyone but their holder while it runs; the
record (format 2) names the draw derivation and the audit re-derives every draw."""

from __future__ import annotations

import random
from typing import Any

import httpx
from litestar import Litestar

from tests.integration.api.bots import bearer, play_to_the_end, player_tokens
from tests.integration.api.test_rulesets import online


async def test_an_online_game_with_duels_and_rage_cards_plays_records_and_audits(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await client.post(
        "/games", json=online(5, ["UA1", "UA2"], "ua-1"), headers=bearer(organiser_token)
    )
    assert created.status_code == 201, created.text
    state = created.json()["state"]
    assert state["fairness"] == "deal-2 dice-2 draws-1"
    assert state["ruleset"]["text"] == "dice UA1 UA2"
    assert state["ruleset"]["data"]["rage-deck"] == "rage-1"
    tokens = await player_tokens(app, created.json())
    seen: list[tuple[str, str]] = []
    checked = {"hidden": 0}

    async def look(n: int) -> None:
        public = (await client.get("/games/ua-1")).json()
        for p in public["players"]:
            assert p["rage_cards"] is None  # nobody but the holder sees a face-down card
            if p["rage_count"]:
                mine = (await client.get("/games/ua-1", headers=bearer(tokens[p["member_id"]]))).json()
                own = next(q for q in mine["players"] if q["id"] == p["id"])
                assert own["rage_cards"] is not None and len(own["rage_cards"]) == p["rage_count"]
                checked["hidden"] += 1

    final = await play_to_the_end(client, "ua-1", tokens, random.Random(11), seen, on_command=look)
    assert final["status"] == "ended"
    assert checked["hidden"], "no face-down Rage card was held while the game ran"
    types: set[str] = set()
    page: list[dict[str, Any]] = [{"version": 0}]
    while page:  # the feed, page by page
        after = page[-1]["version"] + 1
        page = (await client.get("/games/ua-1/events", params={"from_version": after})).json()
        types |= {e["type"] for e in page}
    assert {"RageDrawn", "DuelChallenged", "DuelThrown"} <= types
    record = (await client.get("/games/ua-1/record")).json()
    assert record["ruleset"]["modules"] == ["UA1", "UA2"]
    assert record["options"]["fairness"] == {"deal": "deal-2", "dice": "dice-2", "draws": "draws-1"}
    assert any(i.split()[1] == "draw" for i in record["inputs"] if isinstance(i, str))
    audit = (await client.get("/games/ua-1/audit")).json()
    assert audit["clean"], audit["verdict"]
    assert audit["derivations"] == "deal-2 dice-2 draws-1"
    rolls = next(c for c in audit["checks"] if c["name"] == "rolls")["detail"]
    assert "draws re-derived (draws-1): every card matches" in rolls
