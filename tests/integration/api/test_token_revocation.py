"""Tokens can be revoked (the API, the CLI) and can expire; every API process refuses a revoked
token within seconds: told through Redis, and, should that message be lost, by its cache
looking again after a few seconds."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

import asyncpg
import httpx
import pytest
from litestar import Litestar

from bang_cli.api import create_organiser_token, parse_duration, revoke_tokens
from services.api import ApiSettings, create_app
from services.api.settings import RedisSettings
from services.game.edge.tokens import CACHE_TTL_SECONDS, token_hash
from tests.integration.api.bots import bearer, create_online_game, player_tokens
from tests.integration.api.conftest import resources_of, uvicorn_serving
from tests.integration.api.test_errors import problem

NEVER = 600.0
"""A cache TTL beyond the test: only the Redis message can make that process look again."""
DEADLINE_SECONDS = 15.0
"""Generous: the promise is "within seconds" (Redis: at once; without it: the 5 s TTL)."""


@asynccontextmanager
async def two_instances(
    settings: ApiSettings,
) -> AsyncIterator[tuple[Litestar, httpx.AsyncClient, httpx.AsyncClient]]:
    """Two API processes' worth of apps on one database and one Redis."""
    app_a, app_b = create_app(settings), create_app(settings)
    async with (
        uvicorn_serving(app_a) as a,
        uvicorn_serving(app_b) as b,
        httpx.AsyncClient(base_url=f"http://{a}") as client_a,
        httpx.AsyncClient(base_url=f"http://{b}") as client_b,
    ):
        yield app_b, client_a, client_b


async def refused_within(client: httpx.AsyncClient, url: str, token: str) -> float:
    """Seconds until ``client`` answers 401 to ``token`` (polled; fails after the deadline)."""
    started = time.monotonic()
    while time.monotonic() - started < DEADLINE_SECONDS:
        response = await client.get(url, headers=bearer(token))
        if response.status_code == 401:
            problem(response, 401, "unauthenticated")
            return time.monotonic() - started
        assert response.status_code == 200, response.text
        await asyncio.sleep(0.05)
    raise AssertionError(f"the other process still took the token after {DEADLINE_SECONDS} s")


async def test_a_token_revoked_on_one_process_is_refused_by_the_other_through_redis(
    api_settings: ApiSettings,
) -> None:
    async with two_instances(api_settings) as (app_b, client_a, client_b):
        resources_of(app_b).gateway.tokens.cache_ttl = NEVER
        organiser = await resources_of(app_b).gateway.tokens.issue_organiser("club")
        created = await create_online_game(client_a, organiser, players=4)
        game = f"/games/{created['game_id']}"
        token = next(iter((await player_tokens(app_b, created)).values()))
        seen = await client_b.get(game, headers=bearer(token))  # now cached on B
        assert seen.status_code == 200, seen.text

        revoked = await client_a.delete("/tokens/current", headers=bearer(token))
        assert revoked.status_code == 200, revoked.text
        assert revoked.json() == {"revoked": 1}
        await refused_within(client_b, game, token)
        problem(await client_a.get(game, headers=bearer(token)), 401, "unauthenticated")
        # a revoked token cannot revoke itself twice (nor say whether it ever existed)
        problem(await client_a.delete("/tokens/current", headers=bearer(token)), 401, "unauthenticated")
        problem(await client_a.delete("/tokens/current"), 401, "unauthenticated")
        assert (await client_b.get(game, headers=bearer(organiser))).status_code == 200


async def test_a_lost_revocation_message_is_made_good_by_the_cache_ttl(
    api_settings: ApiSettings, database_dsn: str
) -> None:
    async with two_instances(api_settings) as (app_b, client_a, client_b):
        vault = resources_of(app_b).gateway.tokens
        assert vault.cache_ttl == CACHE_TTL_SECONDS <= 5
        organiser = await vault.issue_organiser("club")
        created = await create_online_game(client_a, organiser, players=4)
        game = f"/games/{created['game_id']}"
        assert (await client_b.get(game, headers=bearer(organiser))).status_code == 200
        # revoked by the CLI without a Redis URL: nobody is told
        quiet = dataclasses.replace(api_settings, redis=RedisSettings(url=None))
        assert await revoke_tokens(quiet, token=organiser) == 1
        assert await refused_within(client_b, game, organiser) < DEADLINE_SECONDS


async def test_an_expired_token_is_refused_everywhere(api_settings: ApiSettings, database_dsn: str) -> None:
    organiser = await create_organiser_token("night-shift", api_settings, expires_in=timedelta(hours=1))
    async with two_instances(api_settings) as (_, client_a, client_b):
        for client in (client_a, client_b):
            created = await create_online_game(client, organiser, players=3, command_id=f"c-{id(client)}")
            assert created["game_id"]
        connection = await asyncpg.connect(database_dsn)
        try:  # an hour later
            await connection.execute(
                "UPDATE access_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1",
                token_hash(organiser),
            )
        finally:
            await connection.close()
        game = f"/games/{created['game_id']}"
        for client in (client_a, client_b):
            await refused_within(client, game, organiser)


async def test_an_organiser_revokes_the_player_tokens_of_its_own_games_only(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    created = await create_online_game(client, organiser_token, players=4, command_id="mine")
    game_id, tokens = created["game_id"], await player_tokens(app, created)
    rival = await resources_of(app).gateway.tokens.issue_organiser("rival-club")
    one = {"game_id": game_id, "member_id": "m1"}
    problem(await client.post("/tokens/revoke", json=one), 401, "unauthenticated")
    problem(await client.post("/tokens/revoke", json=one, headers=bearer(rival)), 403, "forbidden")
    problem(await client.post("/tokens/revoke", json=one, headers=bearer(tokens["m2"])), 403, "forbidden")
    missing = {"game_id": "no-such-game"}
    unknown = await client.post("/tokens/revoke", json=missing, headers=bearer(organiser_token))
    problem(unknown, 404, "game-not-found")
    bad = await client.post("/tokens/revoke", json={"game_id": "x\u202ey"}, headers=bearer(organiser_token))
    assert problem(bad, 400, "invalid-request")["field"] == "game_id"

    revoked = await client.post("/tokens/revoke", json=one, headers=bearer(organiser_token))
    assert revoked.status_code == 200 and revoked.json() == {"revoked": 1}, revoked.text
    game = f"/games/{game_id}"
    problem(await client.get(game, headers=bearer(tokens["m1"])), 401, "unauthenticated")
    assert (await client.get(game, headers=bearer(tokens["m2"]))).status_code == 200
    everyone = await client.post("/tokens/revoke", json={"game_id": game_id}, headers=bearer(organiser_token))
    assert everyone.json() == {"revoked": 3}
    for member in ("m2", "m3", "m4"):
        problem(await client.get(game, headers=bearer(tokens[member])), 401, "unauthenticated")
    assert (await client.get(game, headers=bearer(organiser_token))).status_code == 200


async def test_the_cli_revokes_an_organisers_tokens_and_parses_lifetimes(
    api_settings: ApiSettings, app: Litestar, client: httpx.AsyncClient
) -> None:
    vault = resources_of(app).gateway.tokens
    first, second = await vault.issue_organiser("club"), await vault.issue_organiser("club")
    other = await vault.issue_organiser("other-club")
    assert await revoke_tokens(api_settings, organiser="club") == 2
    assert await revoke_tokens(api_settings, organiser="club") == 0
    for token in (first, second):
        problem(await client.get("/games/x", headers=bearer(token)), 401, "unauthenticated")
    assert await vault.resolve(other) is not None
    with pytest.raises(ValueError, match="exactly one"):
        await revoke_tokens(api_settings, token=other, organiser="other-club")
    assert parse_duration("90s") == timedelta(seconds=90)
    assert parse_duration("30d") == timedelta(days=30)
    for wrong in ("0h", "1y", "soon", "-5m"):
        with pytest.raises(ValueError, match="not a duration"):
            parse_duration(wrong)
