"""GET /games/{id}/chain: a finished online game's stored events and hashes, from which anybody
recomputes the store's chain; refused (409 game-not-finished) for every game that still hides
something, with the same answer whatever it hides; 404 for no such game."""

from __future__ import annotations

import hashlib
import json
import random
import uuid
from typing import Any

import httpx
from litestar import Litestar

from event_store.codec import canonical_json
from event_store.hashing import GENESIS_HASH, event_hash
from services.game.application.service import Actor, ActorKind
from services.game.edge.chain import hides_something
from tests.integration.api.bots import bearer, create_online_game, play_to_the_end, player_tokens
from tests.integration.api.conftest import resources_of
from tests.integration.api.test_errors import problem

TABLE_SEATS = [
    {"member_id": "ann", "name": "Ann", "role": "sheriff", "character": "paul_regret"},
    {"member_id": "bob", "name": "Bob", "role": "renegade", "character": "willy_the_kid"},
    {"member_id": "cat", "name": "Cat", "role": "outlaw", "character": "black_jack"},
    {"member_id": "dan", "name": "Dan", "role": "outlaw", "character": "lucky_duke"},
    {"member_id": "eve", "name": "Eve", "role": "deputy", "character": "jesse_jones"},
]


def recomputed(chain: dict[str, Any]) -> list[bytes]:
    """Each published event's hash, recomputed from what was published (the store's function)."""
    prev = GENESIS_HASH
    hashes = []
    for e in chain["events"]:
        assert bytes.fromhex(e["prev_hash"]) == prev
        prev = event_hash(
            prev_hash=prev,
            stream=chain["stream"],
            version=e["version"],
            event_id=uuid.UUID(e["event_id"]),
            event_type=e["type"],
            schema_version=e["schema_version"],
            data=e["data"].encode(),
            metadata=e["metadata"].encode(),
        )
        hashes.append(prev)
    return hashes


async def test_a_finished_online_game_publishes_its_chain_and_nothing_secret(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_online_game(client, organiser_token, players=4, command_id="chain-finished")
    game_id = created["game_id"]
    tokens = await player_tokens(app, created)
    await play_to_the_end(client, game_id, tokens, random.Random(5))

    response = await client.get(f"/games/{game_id}/chain")
    assert response.status_code == 200, response.text
    chain = response.json()
    events = chain["events"]
    version = (await client.get(f"/games/{game_id}")).json()["version"]
    assert [e["version"] for e in events] == list(range(1, version + 1))
    assert chain["format"] == "bang-event-v1" and chain["genesis"] == "00" * 32
    assert chain["stream"] == f"game-{game_id}"

    # every hash recomputes from the published bytes, the last one is the stream head, and both
    # are what the store holds
    hashes = recomputed(chain)
    assert [e["hash"] for e in events] == [h.hex() for h in hashes]
    assert chain["head"] == {"version": version, "hash": hashes[-1].hex()}
    stored = await resources_of(app).gateway.store.read_stream(f"game-{game_id}")
    assert [r.hash.hex() for r in stored] == [e["hash"] for e in events]
    assert [r.data for r in stored] == [json.loads(e["data"]) for e in events]

    # the same facts as the public events feed, now that nothing is hidden
    feed = (await client.get(f"/games/{game_id}/events")).json()
    assert [(f["version"], f["type"]) for f in feed] == [(e["version"], e["type"]) for e in events]
    revealed = json.loads(next(e["data"] for e in events if e["type"] == "SeedRevealed"))["seed"]
    assert hashlib.sha256(bytes.fromhex(revealed)).hexdigest() == created["state"]["seed_commitment"]

    # nothing secret: no token and no digest of one; every actor is someone the events name
    body = response.text
    for token in [organiser_token, *tokens.values()]:
        assert token not in body
        assert hashlib.sha256(token.encode()).hexdigest() not in body
    created_by = json.loads(events[0]["data"])["created_by"]
    members = {json.loads(e["data"])["member_id"] for e in events if e["type"] == "PlayerJoined"}
    named = {"system", f"organiser:{created_by}", *(f"player:{m}" for m in members)}
    actors = {json.loads(e["metadata"]).get("actor") for e in events}
    assert actors <= named, actors - named
    assert set().union(*(json.loads(e["metadata"]) for e in events)) <= {
        "actor", "command_id", "command_fingerprint", "correlation_id", "causation_id",
    }  # fmt: skip

    # pages: from a version, a limit, the head on every page
    page = (await client.get(f"/games/{game_id}/chain", params={"from_version": 3, "limit": 2})).json()
    assert page["events"] == events[2:4] and page["head"] == chain["head"]
    too_many = await client.get(f"/games/{game_id}/chain", params={"limit": 1001})
    assert too_many.status_code == 400, too_many.text


async def test_an_unknown_game_is_404(client: httpx.AsyncClient) -> None:
    problem(await client.get("/games/no-such-game/chain"), 404, "game-not-found")


async def _answers(
    client: httpx.AsyncClient, game_id: str, callers: dict[str, dict[str, str]]
) -> dict[str, Any]:
    """Every caller's answer (status, content type and body, the game id written as GAME)."""
    out = {}
    for who, headers in callers.items():
        response = await client.get(f"/games/{game_id}/chain", headers=headers)
        body = response.text.replace(game_id, "GAME")
        out[who] = (response.status_code, response.headers["content-type"], body)
    return out


async def test_an_ongoing_online_game_is_refused_alike_whatever_its_seed_and_roles(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    # same members, same public facts; each game has its own secret seed, so its own deal
    first = await create_online_game(client, organiser_token, players=5, command_id="chain-twin-1")
    second = await create_online_game(client, organiser_token, players=5, command_id="chain-twin-2")
    vault = resources_of(app).gateway.service.seeds
    assert await vault.seed_of(first["game_id"]) != await vault.seed_of(second["game_id"])
    answers = []
    for created in (first, second):
        tokens = await player_tokens(app, created)
        callers = {
            "anonymous": {},
            "organiser": bearer(organiser_token),
            **{member: bearer(token) for member, token in tokens.items()},
        }
        answers.append(await _answers(client, created["game_id"], callers))
    assert answers[0] == answers[1]
    status, content_type, body = answers[0]["m1"]
    assert status == 409 and content_type.startswith("application/problem+json")
    refusal = json.loads(body)
    assert refusal["type"].endswith("/game-not-finished")
    assert refusal["detail"].startswith("game GAME is ongoing: its hash chain is published once the game")

    # the guard beside the status: these events do hide something from the public (the roles)
    gateway = resources_of(app).gateway
    session = await gateway.service.load(first["game_id"])
    stored = await gateway.store.read_stream(f"game-{first['game_id']}")
    rows = [(r.type, r.schema_version, canonical_json(r.data).decode()) for r in stored]
    assert hides_something(session, rows)
    assert not hides_something(session, [row for row in rows if row[0] != "GameStarted"])


async def test_a_lobby_an_abandoned_and_a_table_game_are_refused_and_a_table_s_roles_change_nothing(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    lobby = await client.post(
        "/games",
        json={"command_id": "chain-lobby", "mode": "online", "player_count": 4, "members": []},
        headers=bearer(organiser_token),
    )
    assert lobby.status_code == 201, lobby.text
    refused = problem(await client.get(f"/games/{lobby.json()['game_id']}/chain"), 409, "game-not-finished")
    assert "is lobby" in refused["detail"]

    # two table games whose seats differ only in two hidden roles (Bob and Dan swap)
    swapped = [dict(s) for s in TABLE_SEATS]
    swapped[1]["role"], swapped[3]["role"] = swapped[3]["role"], swapped[1]["role"]
    answers = []
    for n, seats in enumerate((TABLE_SEATS, swapped)):
        table = await client.post(
            "/games",
            json={"command_id": f"chain-table-{n}", "mode": "table", "player_count": 5, "seats": seats},
            headers=bearer(organiser_token),
        )
        assert table.status_code == 201, table.text
        callers = {"anonymous": {}, "scorekeeper": bearer(organiser_token)}
        answers.append(await _answers(client, table.json()["game_id"], callers))
    assert answers[0] == answers[1]
    status, _, body = answers[0]["scorekeeper"]
    assert status == 409 and "is a table game" in json.loads(body)["detail"]

    # an abandoned online game never reveals its seed
    created = await create_online_game(client, organiser_token, players=4, command_id="chain-abandoned")
    game_id = created["game_id"]
    await resources_of(app).gateway.service.abandon(
        game_id, "rained off", actor=Actor(kind=ActorKind.ORGANISER, id="chain"), command_id="chain-abandon"
    )
    refused = problem(await client.get(f"/games/{game_id}/chain"), 409, "game-not-finished")
    assert "is abandoned" in refused["detail"]
