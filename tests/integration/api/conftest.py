"""The API app on a real PostgreSQL (this test's own database) and the shared Redis.

The app runs under a real uvicorn in the test's own event loop, on a loopback port: the
lifespan's asyncpg pool and Redis client then live in the loop the test awaits in (litestar's
AsyncTestClient runs the app in a thread of its own), and WebSockets are the real protocol.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
import uvicorn
from litestar import Litestar

from services.accounts.settings import AccountSettings
from services.api import ApiSettings, create_app
from services.api.app import Resources
from services.api.server import uvicorn_options
from services.api.settings import DatabaseSettings, LimitSettings, RedisSettings, ServerSettings

SMALL_BODY_LIMIT = 16 * 1024
UNTHROTTLED = LimitSettings(rate_limit="1000000/second", anonymous_rate_limit="1000000/second")
"""These tests drive whole games from one client: the limiter stays on, with budgets no test
reaches (tests/integration/api/test_rate_limit.py tests it with small ones)."""
CHEAP_ARGON2 = AccountSettings(argon2_time_cost=1, argon2_memory_kib=8 * 1024, argon2_parallelism=1)
"""Players sign in to join and play: argon2id with small parameters, as in tests/integration/accounts
(what is checked is who may act, not how slow a password guess is)."""


@pytest.fixture
def api_settings(database_dsn: str, redis_url: str) -> ApiSettings:
    return ApiSettings(
        database=DatabaseSettings(url=database_dsn, pool_min_size=1, pool_max_size=6),
        redis=RedisSettings(url=redis_url),
        server=ServerSettings(request_max_body_size=SMALL_BODY_LIMIT, fanout_poll_seconds=2.0),
        limits=UNTHROTTLED,
    )


@pytest.fixture
async def app(api_settings: ApiSettings) -> Litestar:
    return create_app(api_settings, CHEAP_ARGON2)


@pytest.fixture
async def base_url(app: Litestar) -> AsyncIterator[str]:
    async with uvicorn_serving(app) as address:
        yield address


@pytest.fixture
async def client(base_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=f"http://{base_url}", timeout=30) as http:
        yield http


def resources_of(app: Litestar) -> Resources:
    resources: Resources = app.state.resources
    return resources


@pytest.fixture
async def organiser_token(app: Litestar, client: httpx.AsyncClient) -> str:
    return await resources_of(app).gateway.tokens.issue_organiser("club-organiser")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@asynccontextmanager
async def uvicorn_serving(app: Litestar, server: ServerSettings | None = None) -> AsyncIterator[str]:
    """The app under a real uvicorn in this event loop, with the options ``bang-league api``
    gives it (services/api/server.py) for ``server``; yields its base URL."""
    port = free_port()
    # uvicorn closes a connection idle for 5 s; a test's client that waited that long (a loaded
    # machine) could send its next request on it as it closed ("Server disconnected without
    # sending a response"): the tests' connections stay open for as long as a test runs
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            ws="websockets-sansio",
            timeout_keep_alive=600,
            **uvicorn_options(server or ServerSettings()),
        )
    )
    task = asyncio.create_task(server.serve())
    try:
        for _ in range(500):
            if server.started:
                break
            if task.done():
                task.result()
            await asyncio.sleep(0.01)
        assert server.started, "uvicorn did not start"
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, timeout=10)
