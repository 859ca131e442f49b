"""Five bots play an online game to the end over the HTTP API while it is watched live over
GraphQL subscriptions; nothing any channel shows an anonymous client or another player gives
away a hidden role or the dice seed before the end."""

from __future__ import annotations

import asyncio
import json
import random
from collections import defaultdict
from typing import Any

import httpx
from litestar import Litestar

from services.api.client import GraphQLSubscription, operation
from services.game.application.session import GameSession
from services.game.rules.dice import Role
from tests.integration.api.bots import ANONYMOUS, bearer, create_online_game, play_to_the_end, player_tokens
from tests.integration.api.conftest import resources_of

SPY_EVERY = 12
"""Every this many commands, the spies look at the game through every channel."""


class Spy:
    """Looks at a game as one viewer through every channel and keeps every body it gets."""

    def __init__(self, client: httpx.AsyncClient, game_id: str, viewer: str, token: str | None) -> None:
        self.client, self.game_id, self.viewer = client, game_id, viewer
        self.headers = {} if token is None else bearer(token)
        self.bodies: list[str] = []
        self.checked = 0

    async def look_and_check(self, truth: GameSession) -> None:
        """Look through every channel, then check what came back against the server's truth
        at this moment: seats alive, not the Sheriff's and not the viewer's own are hidden."""
        first = len(self.bodies)
        await self.look()
        assert truth.game is not None
        hidden = {
            p.id
            for p in truth.game.state.players
            if p.alive and p.role is not Role.SHERIFF and truth.seat_members[p.id] != self.viewer
        }
        shown = {p.role.value for p in truth.game.state.players if p.id not in hidden}
        secret = {truth.game.state.by_id[s].role.value for s in hidden} - shown
        for body in self.bodies[first:]:
            document = json.loads(body)
            assert not roles_in(document, secret), f"{self.viewer} saw a hidden role in {body[:300]}"
            _assert_seats_hidden(document, hidden, self.viewer)
            self.checked += bool(hidden)

    async def look(self) -> None:
        g = f"/games/{self.game_id}"
        state = await self._get(g)
        version = json.loads(state)["version"]
        await self._get(f"{g}/events?from_version=1")
        await self._get(f"{g}/versions/{max(version - 3, 1)}")
        await self._get(f"{g}/record")  # refused while roles are hidden: the refusal is scanned
        await self._get(f"{g}/audit")
        for name, variables in [
            ("Game", {"id": self.game_id}),
            ("GameEvents", {"id": self.game_id, "fromVersion": 1}),
            ("GameAt", {"id": self.game_id, "version": max(version - 3, 1)}),
            ("Audit", {"id": self.game_id}),
        ]:
            response = await self.client.post(
                "/graphql", json={"query": operation(name), "variables": variables}, headers=self.headers
            )
            assert response.status_code == 200, response.text
            self.bodies.append(response.text)

    async def _get(self, url: str) -> str:
        response = await self.client.get(url, headers=self.headers)
        assert response.status_code in (200, 409), f"{url}: {response.text}"
        self.bodies.append(response.text)
        return response.text


async def watch(
    url: str, game_id: str, token: str | None, into: list[dict[str, Any]], ready: asyncio.Event
) -> None:
    """Subscribe (catching up from version 1, so that the first event proves the watch is live)."""
    variables = {"id": game_id, "fromVersion": 1}
    async with GraphQLSubscription(url, operation("WatchGame"), variables, token=token) as subscription:
        async for data in subscription:
            into.append(data["gameEvents"])
            ready.set()


async def watch_updates(
    url: str, game_id: str, token: str, into: list[dict[str, Any]], ready: asyncio.Event
) -> None:
    """The same, through gameUpdates: one message per command, its events inside."""
    variables = {"id": game_id, "token": token, "fromVersion": 1}
    async with GraphQLSubscription(url, operation("WatchGameUpdates"), variables) as subscription:
        async for data in subscription:
            update = data["gameUpdates"]
            assert update["version"] == update["events"][-1]["version"]
            into.extend(update["events"])
            ready.set()


def roles_in(value: Any, roles: set[str]) -> set[str]:
    """Every role name that occurs as a value anywhere in a JSON document."""
    if isinstance(value, str):
        return {value} & roles
    if isinstance(value, dict):
        return set().union(*(roles_in(v, roles) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(roles_in(v, roles) for v in value)) if value else set()
    return set()


async def test_bots_play_an_online_game_watched_live_and_nothing_leaks(
    app: Litestar, base_url: str, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_online_game(client, organiser_token, players=5)
    game_id, tokens = created["game_id"], await player_tokens(app, created)
    assert created["state"]["status"] == "ongoing"
    url = f"ws://{base_url}/graphql"

    # live watchers: an anonymous client and player m1
    live: dict[str, list[dict[str, Any]]] = defaultdict(list)
    ready = {ANONYMOUS: asyncio.Event(), "m1": asyncio.Event(), "m2": asyncio.Event()}
    watchers = [
        asyncio.create_task(watch(url, game_id, None, live[ANONYMOUS], ready[ANONYMOUS])),
        asyncio.create_task(watch(url, game_id, tokens["m1"], live["m1"], ready["m1"])),
        asyncio.create_task(watch_updates(url, game_id, tokens["m2"], live["m2"], ready["m2"])),
    ]
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ready.values())), timeout=10)

    spies = [Spy(client, game_id, ANONYMOUS, None), Spy(client, game_id, "m1", tokens["m1"])]
    looks = 0

    async def spy_now(n: int) -> None:
        nonlocal looks
        # the first commands always (every role but the Sheriff's is hidden then, whatever the
        # deal), then every SPY_EVERY-th: a short game still gets looked at several times
        if n < 4 or n % SPY_EVERY == 0:
            looks += 1
            truth = await resources_of(app).gateway.service.load(game_id)
            for spy in spies:
                await spy.look_and_check(truth)

    played_bodies: list[tuple[str, str]] = []
    final = await play_to_the_end(
        client, game_id, tokens, random.Random(5), played_bodies, on_command=spy_now
    )
    assert final["status"] == "ended" and final["result"] is not None
    await asyncio.wait_for(asyncio.gather(*watchers), timeout=15)  # the subscriptions complete at the end
    assert looks > 3
    assert all(spy.checked > 0 for spy in spies), "the spies never looked while a role was hidden"

    # the whole game, in order, to every watcher; redacted per watcher
    stored = await resources_of(app).gateway.store.read_stream(f"game-{game_id}")
    for viewer, events in live.items():
        assert [e["version"] for e in events] == [r.version for r in stored], viewer
        assert events[-1]["type"] == "SeedRevealed"

    # what each viewer could know before the end
    seats = {p["id"]: p for p in final["players"]}
    seed = final["seed"]
    assert seed is not None
    member_seat = {p["member_id"]: p["id"] for p in final["players"]}
    for viewer, bodies in _bodies_by_viewer(spies, played_bodies, live, stored_count=len(stored)).items():
        own = member_seat.get(viewer)
        never_shown = {s for s, p in seats.items() if p["alive"] and p["role"] != "sheriff" and s != own}
        shown = {p["role"] for s, p in seats.items() if s not in never_shown}
        secret_roles = {seats[s]["role"] for s in never_shown} - shown
        for body in bodies:
            assert seed not in body, f"{viewer} saw the seed before the end"
            document = json.loads(body)
            assert not roles_in(document, secret_roles), f"{viewer} saw a hidden role in {body[:300]}"
            _assert_seats_hidden(document, never_shown, viewer)


def _bodies_by_viewer(
    spies: list[Spy],
    played: list[tuple[str, str]],
    live: dict[str, list[dict[str, Any]]],
    stored_count: int,
) -> dict[str, list[str]]:
    """Everything each viewer received before the game's end (the last few events and the
    final responses are where roles are revealed, legitimately)."""
    out: dict[str, list[str]] = defaultdict(list)
    for spy in spies:
        out[spy.viewer] += spy.bodies  # every look happened while the game was ongoing
    for viewer, body in played:
        out[viewer].append(body)
    for viewer, events in live.items():
        ended_at = next(e["version"] for e in events if e["type"] == "GameEnded")
        out[viewer] += [json.dumps(e) for e in events if e["version"] < ended_at]
        assert ended_at < stored_count
    return out


def _assert_seats_hidden(document: Any, hidden: set[str], viewer: str) -> None:
    """Wherever a seat and its role appear together (state players, GameStarted seats), the
    role of a hidden seat is null."""
    if isinstance(document, dict):
        seat = document.get("id", document.get("player"))
        if seat in hidden and "role" in document:
            assert document["role"] is None, f"{viewer} saw the role of {seat}"
        for value in document.values():
            _assert_seats_hidden(value, hidden, viewer)
    elif isinstance(document, list):
        for value in document:
            _assert_seats_hidden(value, hidden, viewer)
