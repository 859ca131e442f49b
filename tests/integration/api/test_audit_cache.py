"""Audit results cached by (game, last version) (issue 9, finding 2): an audit of an unchanged
game answers without replaying it again; a new event means a new replay; the cache is bounded."""

from __future__ import annotations

import asyncio
import random

import httpx
from litestar import Litestar

from services.game.audit import AuditCache
from tests.integration.api.bots import bearer, create_online_game, player_tokens
from tests.integration.api.conftest import resources_of
from tests.integration.api.long_game import import_long_game

AUDIT = "query A($id: ID!) { audit(id: $id) { clean eventsChecked } }"


async def audit(client: httpx.AsyncClient, game_id: str) -> dict[str, object]:
    response = await client.post("/graphql", json={"query": AUDIT, "variables": {"id": game_id}})
    assert response.status_code == 200, response.text
    report: dict[str, object] = response.json()["data"]["audit"]
    return report


async def test_an_unchanged_game_is_replayed_once(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    audits = resources_of(app).gateway.audits
    events = await import_long_game(app, organiser_token, "cached-1")
    first = await audit(client, "cached-1")
    assert first == {"clean": True, "eventsChecked": events}
    assert audits.replays == 1
    assert await audit(client, "cached-1") == first
    rest = await client.get("/games/cached-1/audit")
    assert rest.status_code == 200 and rest.json()["events_checked"] == events
    assert audits.replays == 1
    # callers asking at once share one replay
    await asyncio.gather(*(audit(client, "cached-1") for _ in range(5)))
    assert audits.replays == 1


async def test_a_new_event_means_a_new_replay(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    audits = resources_of(app).gateway.audits
    created = await create_online_game(client, organiser_token)
    game_id, tokens = created["game_id"], await player_tokens(app, created)
    before = await audit(client, game_id)
    assert audits.replays == 1
    state = (await client.get(f"/games/{game_id}")).json()
    awaited = next(p["member_id"] for p in state["players"] if p["id"] == state["awaiting"]["player"])
    mine = (await client.get(f"/games/{game_id}", headers=bearer(tokens[awaited]))).json()
    played = await client.post(
        f"/games/{game_id}/commands",
        json={"command": random.Random(1).choice(mine["legal_commands"]), "command_id": "c1"},
        headers=bearer(tokens[awaited]),
    )
    assert played.status_code == 200, played.text
    after = await audit(client, game_id)
    assert audits.replays == 2
    assert after["clean"] is True and after["eventsChecked"] > before["eventsChecked"]


async def test_the_cache_is_bounded(app: Litestar, organiser_token: str) -> None:
    store = resources_of(app).gateway.store
    for n in range(3):
        await import_long_game(app, organiser_token, f"bounded-{n}")
    cache = AuditCache(store, size=2)
    for n in range(3):
        await cache.audit(f"bounded-{n}")
    assert cache.replays == 3
    await cache.audit("bounded-2")  # still held
    assert cache.replays == 3
    await cache.audit("bounded-0")  # the oldest was let go
    assert cache.replays == 4
