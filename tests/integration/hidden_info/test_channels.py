"""Every read channel (REST state, events, time travel, record, audit; GraphQL queries and the
dashboard's own operations) as an anonymous client, another player and an organiser, for the
kinds of game whose visibility rules differ: online 4–8 players, 3 players, table games,
lobbies and abandoned games."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
from litestar import Litestar

from services.api.client import GraphQLSubscription, operation
from services.game.application.service import Actor, ActorKind
from tests.integration.api.bots import bearer, create_online_game, player_tokens
from tests.integration.api.people import people

from .conftest import (
    Spy,
    check_body,
    play_some,
    resources_of,
    secrets_for,
    seed_hex,
    spy_and_check,
    truth,
)

ORGANISER = "organiser"


async def _viewers(
    app: Litestar, created: dict[str, Any], organiser_token: str
) -> dict[str | None, str | None]:
    tokens = await player_tokens(app, created)
    some_player = sorted(tokens)[1]
    return {None: None, some_player: tokens[some_player], ORGANISER: organiser_token}


async def test_an_online_game_in_progress_through_every_channel(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_online_game(client, organiser_token, players=6, command_id="spy-6")
    game_id, tokens = created["game_id"], await player_tokens(app, created)
    viewers = await _viewers(app, created, organiser_token)
    rng = random.Random(6)
    checked = await spy_and_check(app, client, game_id, viewers)
    for _ in range(4):
        state = await play_some(client, game_id, tokens, rng, 15)
        if state["status"] != "ongoing":
            break
        checked += await spy_and_check(app, client, game_id, viewers)
    assert checked > 50


async def test_time_travel_to_every_version_shows_no_more_than_now(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_online_game(client, organiser_token, players=5, command_id="travel")
    game_id, tokens = created["game_id"], await player_tokens(app, created)
    await play_some(client, game_id, tokens, random.Random(3), 25)
    session = await truth(app, game_id)
    assert session.status.value == "ongoing", "pick another rng seed: the game ended already"
    seed = await seed_hex(app, game_id)
    member = sorted(tokens)[2]
    for viewer, token in ((None, None), (member, tokens[member])):
        secrets = secrets_for(session, viewer, seed)
        spy = Spy(client, game_id, token)
        for where, body in await spy.look(versions=range(1, session.version + 1)):
            check_body(body, secrets, f"{viewer or 'anonymous'} via {where}")


async def test_a_three_player_game_shows_every_role_but_never_the_seed(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_online_game(client, organiser_token, players=3, command_id="three")
    game_id, tokens = created["game_id"], await player_tokens(app, created)
    public = (await client.get(f"/games/{game_id}")).json()
    assert all(p["role"] is not None for p in public["players"]), "3-player roles are public"
    await play_some(client, game_id, tokens, random.Random(33), 10)
    if (await truth(app, game_id)).status.value == "ongoing":
        await spy_and_check(app, client, game_id, await _viewers(app, created, organiser_token))


async def test_a_lobby_publishes_only_the_commitment(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    response = await client.post(
        "/games",
        json={"command_id": "lobby", "mode": "online", "player_count": 4, "members": []},
        headers=bearer(organiser_token),
    )
    game_id = response.json()["game_id"]
    [mia] = await people(app, client, "Mia")
    joined = await client.post(f"/games/{game_id}/players", json={"command_id": "j1-7e1f"}, headers=mia.auth)
    assert joined.status_code == 201
    seed = await seed_hex(app, game_id)
    for url in (f"/games/{game_id}", f"/games/{game_id}/events", f"/games/{game_id}/versions/2"):
        for headers in ({}, bearer(joined.json()["token"]), mia.auth, bearer(organiser_token)):
            body = (await client.get(url, headers=headers)).text
            assert seed not in body
    audit = await client.get(f"/games/{game_id}/audit")
    record = await client.get(f"/games/{game_id}/record")
    assert seed not in audit.text and seed not in record.text and record.status_code == 409


async def test_an_abandoned_game_keeps_its_roles_and_seed_secret(
    app: Litestar, base_url: str, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_online_game(client, organiser_token, players=5, command_id="doomed")
    game_id, tokens = created["game_id"], await player_tokens(app, created)
    await play_some(client, game_id, tokens, random.Random(8), 12)
    before = await truth(app, game_id)
    assert before.status.value == "ongoing", "pick another rng seed: the game ended already"
    seed = await seed_hex(app, game_id)
    await resources_of(app).gateway.service.abandon(
        game_id,
        "the saloon closed",
        actor=Actor(kind=ActorKind.ORGANISER, id="club-organiser"),
        command_id="x",
    )
    after = await truth(app, game_id)
    assert after.status.value == "abandoned"
    viewers = await _viewers(app, created, organiser_token)
    assert await spy_and_check(app, client, game_id, viewers) > 0
    for member, token in viewers.items():
        record = await client.get(f"/games/{game_id}/record", headers=bearer(token) if token else {})
        assert record.status_code == 409, f"{member}: {record.text[:200]}"

    # a live watcher catching up on the abandoned game: the stream completes, nothing revealed
    secrets = secrets_for(after, None, seed)
    seen: list[dict[str, Any]] = []

    async def watch() -> None:
        variables = {"id": game_id, "fromVersion": 1}
        async with GraphQLSubscription(f"ws://{base_url}/graphql", operation("WatchGame"), variables) as sub:
            async for data in sub:
                seen.append(data["gameEvents"])

    await asyncio.wait_for(watch(), timeout=15)
    assert seen and seen[-1]["type"] == "GameAbandoned"
    assert "SeedRevealed" not in {e["type"] for e in seen}
    check_body(json.dumps(seen), secrets, "anonymous subscription of an abandoned game")


TABLE_SEATS = [
    {"member_id": "ann", "name": "Ann", "role": "sheriff", "character": "paul_regret"},
    {"member_id": "bob", "name": "Bob", "role": "renegade", "character": "willy_the_kid"},
    {"member_id": "cat", "name": "Cat", "role": "outlaw", "character": "black_jack"},
    {"member_id": "dan", "name": "Dan", "role": "outlaw", "character": "lucky_duke"},
    {"member_id": "eve", "name": "Eve", "role": "deputy", "character": "jesse_jones"},
]


async def test_a_table_game_is_open_to_its_scorekeeper_only(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    response = await client.post(
        "/games",
        json={"command_id": "table", "mode": "table", "player_count": 5, "seats": TABLE_SEATS},
        headers=bearer(organiser_token),
    )
    assert response.status_code == 201, response.text
    game_id = response.json()["game_id"]
    assert all(p["role"] is not None for p in response.json()["state"]["players"])
    rival = await resources_of(app).gateway.tokens.issue_organiser("rival-club")
    session = await truth(app, game_id)
    for name, token in (("anonymous", None), ("rival organiser", rival)):
        secrets = secrets_for(session, None, None)
        assert secrets.hidden_roles == {"renegade", "outlaw", "deputy"}
        for where, body in await Spy(client, game_id, token).look():
            check_body(body, secrets, f"{name} via {where}")
    record = await client.get(f"/games/{game_id}/record", headers=bearer(organiser_token))
    assert record.status_code == 200, "the scorekeeper exports an ongoing table game"
