"""Bots that play over the HTTP API: each picks among the legal commands its own view lists."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from litestar import Litestar

MAX_COMMANDS = 3_000
ANONYMOUS = "anonymous"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def create_online_game(
    client: httpx.AsyncClient, organiser_token: str, players: int = 5, command_id: str = "create"
) -> dict[str, Any]:
    members = [{"member_id": f"m{i}", "name": f"Bot {i}"} for i in range(1, players + 1)]
    response = await client.post(
        "/games",
        json={"command_id": command_id, "mode": "online", "player_count": players, "members": members},
        headers=bearer(organiser_token),
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


async def player_tokens(app: Litestar, created: dict[str, Any]) -> dict[str, str]:
    """A player token for each member of a created game, issued by the vault as an operator
    would: the API hands nobody another player's token (issue 11), so these tests, which play
    every seat themselves, take them where only the server's operator can."""
    vault = app.state.resources.gateway.tokens
    game_id, joined = created["game_id"], created["state"]["joined"]
    return {j["member_id"]: await vault.issue_player(game_id, j["member_id"]) for j in joined}


async def play_to_the_end(
    client: httpx.AsyncClient,
    game_id: str,
    tokens: dict[str, str],
    rng: random.Random,
    bodies: list[tuple[str, str]] | None = None,
    on_command: Callable[[int], Awaitable[None]] | None = None,
) -> dict[str, Any]:
    """Play until the game ends. ``bodies`` collects (viewer, body) of every response given
    while the game was still going on; ``on_command(n)`` runs before command ``n``."""
    public = (await client.get(f"/games/{game_id}")).json()
    member_of = {p["id"]: p["member_id"] for p in public["players"]}
    state: dict[str, Any] = public
    for n in range(MAX_COMMANDS):
        if state["status"] != "ongoing":
            return state
        if on_command is not None:
            await on_command(n)
        awaited = member_of[state["awaiting"]["player"]]
        if not state["legal_commands"]:  # somebody else's decision: look at it as them
            response = await client.get(f"/games/{game_id}", headers=bearer(tokens[awaited]))
            state = response.json()
            _keep(bodies, awaited, response.text, state)
        command = rng.choice(state["legal_commands"])
        response = await client.post(
            f"/games/{game_id}/commands",
            json={"command": command, "command_id": f"bot-{n}", "expected_version": state["version"]},
            headers=bearer(tokens[awaited]),
        )
        assert response.status_code == 200, response.text
        state = response.json()["state"]
        _keep(bodies, awaited, response.text, state)
    raise AssertionError(f"game {game_id} did not end in {MAX_COMMANDS} commands")


def _keep(bodies: list[tuple[str, str]] | None, viewer: str, body: str, state: dict[str, Any]) -> None:
    if bodies is not None and state["status"] == "ongoing":
        bodies.append((viewer, body))
