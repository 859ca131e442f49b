"""A stalled PostgreSQL or Redis (every process of it SIGSTOPped) costs a request seconds, not
minutes: it is answered 503 with ``Retry-After``, ``/health`` answers within a second naming
what is unavailable, and after SIGCONT the same requests succeed with no restart.

The servers stopped here are private to each test (embedded, in the test's own temporary
directory): stopping the shared test servers would freeze every other test worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar import Litestar

from infra.postgres import ResolvedPostgres, create_database, resolve_postgres
from infra.redis import ResolvedRedis, resolve_redis
from infra.settings import InfraSettings
from services.api import ApiSettings, create_app
from services.api.client import GraphQLSubscription, operation
from services.api.settings import DatabaseSettings, RedisSettings, ServerSettings
from tests.integration.api.bots import bearer, create_online_game, player_tokens
from tests.integration.api.conftest import resources_of, uvicorn_serving

# The issue asks for about 2 s (1.75 s by the default limits); the bound leaves room for a
# machine shared by several test runs.
REQUEST_BOUND_SECONDS = 5.0
HEALTH_BOUND_SECONDS = 1.5

GAME_QUERY = '{ game(id: "%s") { id version } }'
NEW_GAME = {
    "command_id": "during-the-stall",
    "mode": "online",
    "player_count": 4,
    "members": [{"member_id": f"m{i}", "name": f"Bot {i}"} for i in range(1, 5)],
}
LEADERBOARD_QUERY = "{ ratingLeaderboard(limit: 5) { memberId } }"

EMBEDDED_ONLY = InfraSettings.from_env({"BANG_USE_CONTAINERS": "0"})


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """Not pytest's tmp_path: PostgreSQL runs as another user under root, and pytest keeps
    its temporary root private to root."""
    path = Path(tempfile.mkdtemp(prefix="bang-stall-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def private_postgres(data_dir: Path) -> Iterator[tuple[ResolvedPostgres, int]]:
    """An embedded PostgreSQL of this test's own, and its postmaster's pid."""
    with resolve_postgres(data_dir, EMBEDDED_ONLY) as postgres:
        postmaster = int((data_dir / "postgres" / "postmaster.pid").read_text().splitlines()[0])
        yield postgres, postmaster


@pytest.fixture
def private_redis(data_dir: Path) -> Iterator[tuple[ResolvedRedis, int]]:
    with resolve_redis(data_dir, EMBEDDED_ONLY) as redis:
        yield redis, int((data_dir / "redis" / "redis.pid").read_text().strip())


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                # the parent pid is the second field after the parenthesised command name
                if int((entry / "stat").read_text().rpartition(")")[2].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


@contextlib.contextmanager
def stopped(pid: int) -> Iterator[None]:
    """SIGSTOP a server and every process it forked (a PostgreSQL backend serves its
    connection on its own: stopping the postmaster alone stalls only new connections)."""
    pids = [pid, *_children(pid)]
    try:
        for each in pids:
            os.kill(each, signal.SIGSTOP)
        yield
    finally:
        for each in reversed(pids):
            with contextlib.suppress(ProcessLookupError):
                os.kill(each, signal.SIGCONT)


@contextlib.asynccontextmanager
async def serving(settings: ApiSettings) -> AsyncIterator[tuple[httpx.AsyncClient, str, Litestar]]:
    """The API under uvicorn, an HTTP client for it, an organiser token, and the app."""
    app = create_app(settings)
    async with (
        uvicorn_serving(app) as address,
        httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as client,
    ):
        yield client, await resources_of(app).gateway.tokens.issue_organiser("club-organiser"), app


async def watch(client: httpx.AsyncClient, game_id: str, from_version: int, versions: list[int]) -> None:
    """Subscribe to the game's events from ``from_version``; return after the one past it."""
    url = f"ws://{client.base_url.host}:{client.base_url.port}/graphql"
    variables = {"id": game_id, "fromVersion": from_version}
    async with GraphQLSubscription(url, operation("WatchGame"), variables) as subscription:
        async for data in subscription:
            versions.append(data["gameEvents"]["version"])
            if len(versions) > 1:
                return


async def play_one_command(
    client: httpx.AsyncClient, created: dict[str, Any], tokens: dict[str, str]
) -> None:
    game_id = created["game_id"]
    state = (await client.get(f"/games/{game_id}")).json()
    awaited = next(p["member_id"] for p in state["players"] if p["id"] == state["awaiting"]["player"])
    token = tokens[awaited]
    mine = (await client.get(f"/games/{game_id}", headers=bearer(token))).json()
    response = await client.post(
        f"/games/{game_id}/commands",
        json={"command": mine["legal_commands"][0], "command_id": "after-the-stall"},
        headers=bearer(token),
    )
    assert response.status_code == 200, response.text


async def timed(request: Any) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = await request
    return response, time.monotonic() - started


def assert_unavailable(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    assert int(response.headers["retry-after"]) > 0
    assert response.headers["content-type"].startswith("application/problem+json")


async def test_a_stalled_database_is_answered_503_within_seconds_and_recovers(
    private_postgres: tuple[ResolvedPostgres, int], redis_url: str
) -> None:
    postgres, postmaster = private_postgres
    dsn = await create_database(postgres.dsn, prefix="stall")
    settings = ApiSettings(
        database=DatabaseSettings(url=dsn, pool_min_size=1, pool_max_size=4),
        redis=RedisSettings(url=redis_url),
        # a live subscriber re-reads the store often, so it reads during the stall too
        server=ServerSettings(fanout_poll_seconds=0.5),
    )
    async with serving(settings) as (client, organiser, app):
        created = await create_online_game(client, organiser)
        tokens = await player_tokens(app, created)
        game_id, version = created["game_id"], created["version"]
        assert (await client.get(f"/games/{game_id}")).status_code == 200
        versions: list[int] = []
        watcher = asyncio.create_task(watch(client, game_id, version, versions))
        for _ in range(100):
            if versions or watcher.done():
                break
            await asyncio.sleep(0.1)
        assert versions == [version], "the subscription did not start"

        with stopped(postmaster):
            # through the event store (its pooled connections are stuck in their query) …
            game, game_seconds = await timed(client.get(f"/games/{game_id}"))
            # … and a command, which also reads the league's reservations through the pool itself
            create, create_seconds = await timed(
                client.post("/games", json=NEW_GAME, headers=bearer(organiser))
            )
            health, health_seconds = await timed(client.get("/health"))
            graphql, graphql_seconds = await timed(
                client.post("/graphql", json={"query": GAME_QUERY % game_id})
            )
            leaderboard, leaderboard_seconds = await timed(
                client.post("/graphql", json={"query": LEADERBOARD_QUERY})
            )

        print(
            f"stalled database: GET game {game_seconds:.2f} s, POST game {create_seconds:.2f} s, "
            f"/health {health_seconds:.2f} s, GraphQL game {graphql_seconds:.2f} s, "
            f"GraphQL leaderboard {leaderboard_seconds:.2f} s"
        )
        assert_unavailable(game)
        assert game.json()["type"].endswith("/store-unavailable")
        assert game_seconds < REQUEST_BOUND_SECONDS
        assert_unavailable(create)
        assert create_seconds < REQUEST_BOUND_SECONDS

        assert_unavailable(health)
        assert health_seconds < HEALTH_BOUND_SECONDS
        checks = health.json()["checks"]
        assert checks["database"].startswith("unavailable"), checks
        assert checks["redis"] == "ok"

        for answer, seconds in ((graphql, graphql_seconds), (leaderboard, leaderboard_seconds)):
            assert seconds < REQUEST_BOUND_SECONDS
            errors = answer.json()["errors"]
            problem = errors[0]["extensions"]["problem"]
            assert problem["status"] == 503 and problem["retry_after"] > 0, errors
            assert errors[0]["message"] != "Unexpected error."

        # SIGCONT: the stuck connections were thrown away; the next requests simply work
        again = await client.get(f"/games/{game_id}")
        assert again.status_code == 200, again.text
        assert (await client.get("/health")).status_code == 200
        recovered = await client.post("/graphql", json={"query": LEADERBOARD_QUERY})
        assert "errors" not in recovered.json(), recovered.text
        # the live subscription outlived the stall: the next command reaches it
        await play_one_command(client, created, tokens)
        await asyncio.wait_for(watcher, timeout=10)
        assert versions == [version, version + 1]


async def test_a_stalled_redis_does_not_hold_requests_or_health(
    database_dsn: str, private_redis: tuple[ResolvedRedis, int]
) -> None:
    redis, redis_pid = private_redis
    settings = ApiSettings(
        database=DatabaseSettings(url=database_dsn, pool_min_size=1, pool_max_size=4),
        redis=RedisSettings(url=redis.url),
    )
    async with serving(settings) as (client, organiser, _):
        with stopped(redis_pid):
            # a new game is announced to the other API processes through Redis, off the
            # request's time: the command neither waits for Redis nor fails
            started = time.monotonic()
            created = await create_online_game(client, organiser, players=4, command_id="during")
            create_seconds = time.monotonic() - started
            health, health_seconds = await timed(client.get("/health"))
        print(f"stalled redis: POST game {create_seconds:.2f} s, /health {health_seconds:.2f} s")
        assert create_seconds < REQUEST_BOUND_SECONDS
        assert (await client.get(f"/games/{created['game_id']}")).status_code == 200
        assert_unavailable(health)
        assert health_seconds < HEALTH_BOUND_SECONDS
        assert health.json()["checks"] == {"database": "ok", "redis": "unavailable: TimeoutError"}
        assert (await client.get("/health")).status_code == 200
