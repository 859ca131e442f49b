"""Two API processes' worth of apps on one database and one Redis: a command sent to one is
seen live by a subscriber of the other, woken through Redis (not by polling)."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from typing import Any

import httpx

from services.api import ApiSettings, create_app
from services.api.client import GraphQLSubscription, operation
from tests.integration.api.bots import bearer, create_online_game, player_tokens
from tests.integration.api.conftest import resources_of, uvicorn_serving

NO_POLLING = 600.0
"""A poll interval far beyond the test: only a Redis wake-up can deliver in time."""


async def test_a_command_on_one_instance_reaches_a_subscriber_on_the_other(api_settings: ApiSettings) -> None:
    settings = dataclasses.replace(
        api_settings, server=dataclasses.replace(api_settings.server, fanout_poll_seconds=NO_POLLING)
    )
    app_a, app_b = create_app(settings), create_app(settings)
    async with uvicorn_serving(app_a) as a, uvicorn_serving(app_b) as b:
        organiser = await resources_of(app_a).gateway.tokens.issue_organiser("club")
        async with httpx.AsyncClient(base_url=f"http://{a}") as client_a:
            created = await create_online_game(client_a, organiser, players=4)
            tokens = await player_tokens(app_a, created)
            game_id, version = created["game_id"], created["version"]
            received: list[dict[str, Any]] = []
            arrived: list[float] = []
            caught_up = asyncio.Event()

            async def subscribe() -> None:
                # from the current version: its event arrives at once and proves the watch is live
                variables = {"id": game_id, "fromVersion": version}
                async with GraphQLSubscription(f"ws://{b}/graphql", operation("WatchGame"), variables) as sub:
                    async for data in sub:
                        received.append(data["gameEvents"])
                        arrived.append(time.perf_counter())
                        caught_up.set()
                        if len(received) > 1:
                            return

            watcher = asyncio.create_task(subscribe())
            await asyncio.wait_for(caught_up.wait(), timeout=10)
            state = (await client_a.get(f"/games/{game_id}")).json()
            awaited = next(p["member_id"] for p in state["players"] if p["id"] == state["awaiting"]["player"])
            token = tokens[awaited]
            mine = (await client_a.get(f"/games/{game_id}", headers=bearer(token))).json()
            sent = time.perf_counter()
            response = await client_a.post(
                f"/games/{game_id}/commands",
                json={"command": mine["legal_commands"][0], "command_id": "over-there"},
                headers=bearer(token),
            )
            assert response.status_code == 200, response.text
            await asyncio.wait_for(watcher, timeout=10)

    assert received[0]["version"] == version
    assert received[1]["version"] == version + 1
    assert arrived[1] - sent < 5.0, "woken by polling, not by the Redis fan-out"
