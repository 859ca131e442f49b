"""The API app with accounts on this test's own PostgreSQL database and the shared Redis.

Argon2 runs with small parameters here (still argon2id): the tests check what is stored and
refused, not how slow a guess is, and many helpers share the machine's two cores."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from litestar import Litestar

from services.accounts.service import AccountService
from services.accounts.settings import AccountSettings
from services.api import ApiSettings, create_app
from tests.integration.api.conftest import api_settings, uvicorn_serving

__all__ = ["api_settings"]

PASSWORD = "correct horse battery"


@pytest.fixture
def account_settings() -> AccountSettings:
    return AccountSettings(argon2_time_cost=1, argon2_memory_kib=8 * 1024, argon2_parallelism=1)


@pytest.fixture
async def app(api_settings: ApiSettings, account_settings: AccountSettings) -> Litestar:
    return create_app(api_settings, account_settings)


@pytest.fixture
async def client(app: Litestar) -> AsyncIterator[httpx.AsyncClient]:
    async with (
        uvicorn_serving(app) as address,
        httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http,
    ):
        yield http


def accounts_of(app: Litestar) -> AccountService:
    service: AccountService = app.state.accounts
    return service


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def invite(app: Litestar, display_name: str = "Alice Example", login: str | None = None) -> str:
    issued = await accounts_of(app).issue_invite(display_name, login=login, issued_by="test")
    return issued.token


async def register(
    app: Litestar, client: httpx.AsyncClient, login: str = "alice", password: str = PASSWORD
) -> dict[str, object]:
    token = await invite(app)
    response = await client.post(
        f"/accounts/invites/{token}/accept", json={"login": login, "password": password}
    )
    assert response.status_code == 201, response.text
    body: dict[str, object] = response.json()
    return body
