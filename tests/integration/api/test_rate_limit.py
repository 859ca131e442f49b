"""Per-client rate limits (issue 9, finding 2): by token, else by address; 429 with
``Retry-After`` and problem details; GraphQL counted by its cost; /health and /metrics never
limited. The shared fixtures give the API budgets no test reaches; these give small ones."""

from __future__ import annotations

import asyncio
import dataclasses

import httpx
import pytest
from litestar import Litestar

from services.api import ApiSettings, create_app
from services.api.settings import LimitSettings
from tests.integration.api.bots import bearer, create_online_game
from tests.integration.api.conftest import resources_of, uvicorn_serving

WINDOW_SECONDS = 20
"""Long enough that no budget refills by itself while a test spends it on a loaded machine."""
PER_TOKEN = 20
PER_ADDRESS = 6


@pytest.fixture
def api_settings(api_settings: ApiSettings) -> ApiSettings:
    limits = LimitSettings(
        rate_limit=f"{PER_TOKEN} per {WINDOW_SECONDS} seconds",
        anonymous_rate_limit=f"{PER_ADDRESS} per {WINDOW_SECONDS} seconds",
    )
    return dataclasses.replace(api_settings, limits=limits)


async def spend(client: httpx.AsyncClient, headers: dict[str, str] | None = None, most: int = 50) -> int:
    """GETs until one is refused; returns how many were answered before it."""
    for answered in range(most):
        response = await client.get("/games/no-such-game", headers=headers)
        if response.status_code == 429:
            return answered
        assert response.status_code == 404, response.text
    raise AssertionError(f"no 429 after {most} requests")


def assert_rate_limited(response: httpx.Response) -> int:
    assert response.status_code == 429, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["type"].endswith("/rate-limited") and body["status"] == 429
    assert "rate limit exceeded" in body["detail"]
    wait = int(response.headers["Retry-After"])
    assert 1 <= wait <= WINDOW_SECONDS
    return wait


async def test_an_anonymous_client_is_limited_by_its_address_and_health_never(
    client: httpx.AsyncClient,
) -> None:
    assert await spend(client) == PER_ADDRESS
    wait = assert_rate_limited(await client.get("/games/no-such-game"))
    assert (
        "this address may make 6 requests per 20 seconds without a token"
        in ((await client.get("/games/no-such-game")).json()["detail"])
    )
    assert wait >= 1
    refused = await client.post("/graphql", json={"query": '{ game(id: "g") { id } }'})
    assert_rate_limited(refused)
    for _ in range(3 * PER_ADDRESS):
        assert (await client.get("/health")).status_code == 200
        assert (await client.get("/metrics")).status_code == 200


async def test_one_token_throttled_does_not_throttle_another(
    client: httpx.AsyncClient, organiser_token: str, app: Litestar
) -> None:
    other = await resources_of(app).gateway.tokens.issue_organiser("another-club")
    assert await spend(client, bearer(organiser_token)) == PER_TOKEN
    assert_rate_limited(await client.get("/games/no-such-game", headers=bearer(organiser_token)))
    assert (await client.get("/games/no-such-game", headers=bearer(other))).status_code == 404
    assert (await client.get("/games/no-such-game")).status_code == 404  # the address's own budget


async def test_a_made_up_token_spends_the_address_budget(client: httpx.AsyncClient) -> None:
    answered = 0
    for n in range(PER_ADDRESS + 1):
        response = await client.get("/games/no-such-game", headers=bearer(f"made-up-{n}"))
        if response.status_code == 429:
            break
        assert response.status_code == 401
        answered += 1
    assert answered == PER_ADDRESS
    assert_rate_limited(await client.get("/games/no-such-game"))


async def test_a_throttled_client_recovers_after_retry_after(api_settings: ApiSettings) -> None:
    """A short window of its own, so the test waits seconds, not the module's window."""
    limits = dataclasses.replace(api_settings.limits, anonymous_rate_limit="3 per 3 seconds")
    app = create_app(dataclasses.replace(api_settings, limits=limits))
    async with uvicorn_serving(app) as address, httpx.AsyncClient(base_url=f"http://{address}") as client:
        await spend(client)
        response = await client.get("/games/no-such-game")
        for _ in range(3):  # the sliding window frees room gradually; each answer says how long
            if response.status_code != 429:
                break
            wait = assert_rate_limited(response)
            assert wait <= 3
            await asyncio.sleep(wait + 0.2)
            response = await client.get("/games/no-such-game")
        assert response.status_code == 404, response.text


async def test_graphql_counts_by_cost(client: httpx.AsyncClient, organiser_token: str) -> None:
    """An audit costs ~4,000, so it counts as ceil(cost / 400) = 11 requests of the token's 20:
    with the creation, the first leaves 8; the second is refused, and cheap requests still pass."""
    created = await create_online_game(client, organiser_token)
    query = "query A($id: ID!) { audit(id: $id) { clean } }"
    audit = {"query": query, "variables": {"id": created["game_id"]}}
    first = await client.post("/graphql", json=audit, headers=bearer(organiser_token))
    assert first.status_code == 200 and first.json()["data"]["audit"]["clean"] is True, first.text
    second = await client.post("/graphql", json=audit, headers=bearer(organiser_token))
    assert_rate_limited(second)
    assert "this operation counts as 11 requests" in second.json()["detail"]
    cheap = await client.get(f"/games/{created['game_id']}", headers=bearer(organiser_token))
    assert cheap.status_code == 200, cheap.text
