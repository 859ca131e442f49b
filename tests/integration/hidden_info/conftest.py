"""Hidden-information probes against the real app (the fixtures of tests/integration/api).

Every test here plays the attacker: an anonymous client, another player, another organiser.
``Truth`` says what a viewer may know at a moment (from the server's own fold of the game);
``Spy`` looks at a game through every channel a client can reach and checks each answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import httpx
from litestar import Litestar

from services.api.client import operation
from services.game.application.session import GameSession, GameStatus
from services.game.rules.dice import Role
from tests.integration.api import conftest as api
from tests.integration.api.bots import bearer
from tests.integration.api.conftest import resources_of

# the real app and its clients, exactly as tests/integration/api sets them up
api_settings = api.api_settings
app = api.app
base_url = api.base_url
client = api.client
organiser_token = api.organiser_token

DASHBOARD_OPERATIONS = "dashboard/"


def dashboard_operation(name: str) -> str:
    return operation(DASHBOARD_OPERATIONS + name)


@dataclass(frozen=True, slots=True)
class Secrets:
    """What one viewer must not see of a game at one moment."""

    hidden_seats: frozenset[str]
    """Seats whose role is hidden from the viewer."""
    hidden_roles: frozenset[str]
    """Role names that only hidden seats hold (so any occurrence of one is a leak)."""
    seed: str | None
    """The dice seed in hex (online games), never to be seen before the end."""


async def truth(app: Litestar, game_id: str) -> GameSession:
    return await resources_of(app).gateway.service.load(game_id)


async def seed_hex(app: Litestar, game_id: str) -> str:
    seed: bytes = await resources_of(app).gateway.service.seeds.seed_of(game_id)
    return seed.hex()


def secrets_for(session: GameSession, member_id: str | None, seed: str | None) -> Secrets:
    """What ``member_id`` (None: anonymous) may not see: every role but the Sheriff's, the
    eliminated players' and their own, unless the rules made every role public."""
    game = session.game
    assert game is not None
    if session.status is GameStatus.ENDED or game.state.three_player:
        return Secrets(frozenset(), frozenset(), None if session.status is GameStatus.ENDED else seed)
    hidden = frozenset(
        p.id
        for p in game.state.players
        if p.alive and p.role is not Role.SHERIFF and session.seat_members.get(p.id) != member_id
    )
    shown = {p.role.value for p in game.state.players if p.id not in hidden}
    roles = frozenset({game.state.by_id[s].role.value for s in hidden} - shown)
    return Secrets(hidden, roles, seed)


ROLE_WORD = re.compile(r"\b(sheriff|deputy|outlaw|renegade)s?\b", re.IGNORECASE)


def check_body(body: str, secrets: Secrets, where: str) -> None:
    """No hidden role, as a value or in a sentence, and not the seed, anywhere in ``body``."""
    if secrets.seed is not None:
        assert secrets.seed not in body.lower(), f"{where}: the dice seed is in {body[:400]}"
    try:
        document = json.loads(body)
    except ValueError:
        document = body
    for text in strings_in(document):
        for word in ROLE_WORD.findall(text):
            assert word.lower() not in secrets.hidden_roles, f"{where}: hidden role {word!r} in {text[:400]}"
    _check_seats(document, secrets.hidden_seats, where)


def strings_in(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v)


def _check_seats(document: Any, hidden: frozenset[str], where: str) -> None:
    if isinstance(document, dict):
        seat = document.get("id", document.get("player"))
        if seat in hidden and "role" in document:
            assert document["role"] is None, f"{where}: the role of {seat} is shown: {document}"
        for value in document.values():
            _check_seats(value, hidden, where)
    elif isinstance(document, list):
        for value in document:
            _check_seats(value, hidden, where)


class Spy:
    """Looks at one game as one caller through every read channel; returns (channel, body)."""

    def __init__(self, client: httpx.AsyncClient, game_id: str, token: str | None) -> None:
        self.client, self.game_id = client, game_id
        self.headers = {} if token is None else bearer(token)

    async def look(self, versions: Iterable[int] = ()) -> list[tuple[str, str]]:
        g = f"/games/{self.game_id}"
        seen: list[tuple[str, str]] = []
        state = await self.client.get(g, headers=self.headers)
        assert state.status_code == 200, state.text
        seen.append((g, state.text))
        version = state.json()["version"]
        wanted = sorted({*versions, 1, version, max(version - 3, 1)})
        urls = [f"{g}/events?from_version=1", f"{g}/record", f"{g}/audit"]
        urls += [f"{g}/versions/{v}" for v in wanted]
        for url in urls:
            response = await self.client.get(url, headers=self.headers)
            assert response.status_code in (200, 409), f"{url}: {response.text}"
            seen.append((url, response.text))
        queries: list[tuple[str, dict[str, Any]]] = [
            (operation("Game"), {"id": self.game_id}),
            (operation("GameEvents"), {"id": self.game_id, "fromVersion": 1}),
            (operation("Audit"), {"id": self.game_id}),
            (dashboard_operation("Audit"), {"id": self.game_id}),
            (dashboard_operation("GameEvents"), {"id": self.game_id, "fromVersion": 1, "limit": 1000}),
        ]
        game_document = dashboard_operation("Game")
        queries += [(operation("GameAt"), {"id": self.game_id, "version": v}) for v in wanted]
        for v in wanted:
            queries.append((game_document, {"id": self.game_id, "version": v}))
        for query, variables in queries:
            payload: dict[str, Any] = {"query": query, "variables": variables}
            if query is game_document:
                payload["operationName"] = "DashboardGameAt"
            response = await self.client.post("/graphql", json=payload, headers=self.headers)
            assert response.status_code == 200, response.text
            assert "errors" not in response.json(), response.text
            seen.append((f"graphql {query.split('(')[0].strip()} {variables}", response.text))
        response = await self.client.post(
            "/graphql",
            json={
                "query": game_document,
                "operationName": "DashboardGame",
                "variables": {"id": self.game_id},
            },
            headers=self.headers,
        )
        assert "errors" not in response.json(), response.text
        seen.append(("graphql DashboardGame", response.text))
        return seen


async def spy_and_check(
    app: Litestar, client: httpx.AsyncClient, game_id: str, viewers: dict[str | None, str | None]
) -> int:
    """Every viewer (member id or None → token or None) looks through every channel; each
    answer is checked against what that viewer may know now. Returns how many answers were
    checked while something was hidden from their viewer."""
    session = await truth(app, game_id)
    seed = await seed_hex(app, game_id) if session.mode.value == "online" else None
    checked = 0
    for member_id, token in viewers.items():
        secrets = secrets_for(session, member_id, seed)
        for where, body in await Spy(client, game_id, token).look():
            check_body(body, secrets, f"{member_id or 'anonymous'} via {where}")
            checked += bool(secrets.hidden_seats)
    return checked


async def play_some(
    client: httpx.AsyncClient, game_id: str, tokens: dict[str, str], rng: Any, commands: int
) -> dict[str, Any]:
    """Play up to ``commands`` random legal commands over REST as the awaited players; stops
    early when the game is no longer ongoing. Returns the last state seen (public view)."""
    state: dict[str, Any] = (await client.get(f"/games/{game_id}")).json()
    member_of = {p["id"]: p["member_id"] for p in state["players"]}
    for n in range(commands):
        if state["status"] != "ongoing":
            break
        awaited = member_of[state["awaiting"]["player"]]
        mine = (await client.get(f"/games/{game_id}", headers=bearer(tokens[awaited]))).json()
        response = await client.post(
            f"/games/{game_id}/commands",
            json={
                "command": rng.choice(mine["legal_commands"]),
                "command_id": f"spy-move-{n}-{rng.random()}",
            },
            headers=bearer(tokens[awaited]),
        )
        assert response.status_code == 200, response.text
        state = (await client.get(f"/games/{game_id}")).json()
    return state
