"""An imported record is bounded (issue 20, finding 3): its bytes (413), its inputs and the events
they make (422), each refusal naming the bound and the record's value, with nothing stored; and
an import is charged to its caller's rate limit by its inputs, so a large one spends the budget
a small one leaves."""

from __future__ import annotations

import dataclasses
from typing import Any

import httpx
import pytest
from litestar import Litestar

from services.api import ApiSettings, create_app
from services.api.settings import LimitSettings, ServerSettings
from services.game.records import limits
from services.game.records.limits import MAX_IMPORT_BYTES, MAX_IMPORT_INPUTS, record_bytes
from tests.integration.api.bots import bearer
from tests.integration.api.conftest import resources_of, uvicorn_serving
from tests.integration.api.long_card_game import long_card_record
from tests.integration.api.test_errors import problem
from tests.integration.api.test_records import a_finished_table_game

WINDOW_SECONDS = 30
PER_TOKEN = 400


@pytest.fixture
def api_settings(api_settings: ApiSettings) -> ApiSettings:
    """The API's own body limit (256 KB), so the import's bound is what refuses a large record."""
    return dataclasses.replace(api_settings, server=ServerSettings(fanout_poll_seconds=2.0))


def with_inputs(record: dict[str, Any], count: int) -> dict[str, Any]:
    inputs = record["inputs"]
    return {**record, "inputs": (inputs * (count // len(inputs) + 1))[:count]}


async def assert_not_stored(client: httpx.AsyncClient, game_id: str) -> None:
    problem(await client.get(f"/games/{game_id}"), 404, "game-not-found")


async def test_a_record_over_the_byte_bound_is_refused_with_413_naming_it(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    record = with_inputs(a_finished_table_game(3), 6 * MAX_IMPORT_INPUTS // 2)
    size = record_bytes(record)
    assert MAX_IMPORT_BYTES < size < 200_000  # past the import's bound, within the API's body limit
    body = {"command_id": "big", "record": record, "game_id": "too-big"}
    refused = problem(
        await client.post("/records", json=body, headers=bearer(organiser_token)), 413, "record-too-large"
    )
    assert (
        f"{size:,} bytes" in refused["detail"] and f"at most {MAX_IMPORT_BYTES:,} bytes" in refused["detail"]
    )
    assert refused["bound"] == "bytes" and refused["limit"] == MAX_IMPORT_BYTES and refused["value"] == size
    await assert_not_stored(client, "too-big")


async def test_a_record_over_the_input_bound_is_refused_with_422_naming_it(
    client: httpx.AsyncClient, organiser_token: str
) -> None:
    count = MAX_IMPORT_INPUTS + 1
    record = with_inputs(a_finished_table_game(3), count)
    assert record_bytes(record) < MAX_IMPORT_BYTES  # refused for its inputs, not its size
    body = {"command_id": "long", "record": record, "game_id": "too-long"}
    refused = problem(
        await client.post("/records", json=body, headers=bearer(organiser_token)), 422, "record-too-long"
    )
    assert (
        f"{count:,} inputs" in refused["detail"]
        and f"at most {MAX_IMPORT_INPUTS:,} inputs" in refused["detail"]
    )
    assert refused["bound"] == "inputs" and refused["value"] == count
    await assert_not_stored(client, "too-long")


async def test_a_record_over_the_event_bound_is_refused_after_its_replay_with_nothing_stored(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No real game comes near the bound (the longest bot game has 3,262 events): lowered under
    that game here, the same check refuses it."""
    monkeypatch.setattr(limits, "MAX_IMPORT_EVENTS", 3_000)
    body = {"command_id": "many", "record": long_card_record(), "game_id": "too-many"}
    refused = problem(
        await client.post("/records", json=body, headers=bearer(organiser_token)), 422, "record-too-long"
    )
    assert "3,262 events" in refused["detail"] and "at most 3,000 events" in refused["detail"]
    assert refused["bound"] == "events" and refused["limit"] == 3_000 and refused["value"] == 3_262
    await assert_not_stored(client, "too-many")
    assert await resources_of(app).gateway.store.read_stream("game-too-many") == []


async def test_an_import_is_charged_by_its_inputs(api_settings: ApiSettings) -> None:
    """Budgets of 400 requests per 30 s: a 151-input import leaves room; the long card game's
    762 inputs cost the whole budget (it passes on an untouched one, and the next request
    waits), and on a budget already in use it is refused with 429, nothing stored. Another
    token is not touched."""
    settings = dataclasses.replace(
        api_settings, limits=LimitSettings(rate_limit=f"{PER_TOKEN} per {WINDOW_SECONDS} seconds")
    )
    app = create_app(settings)
    async with (
        uvicorn_serving(app) as address,
        httpx.AsyncClient(base_url=f"http://{address}", timeout=60) as client,
    ):
        tokens = resources_of(app).gateway.tokens
        small, large, other = [await tokens.issue_organiser(f"club-{n}") for n in range(3)]
        short = {"command_id": "short", "record": a_finished_table_game(3), "game_id": "short"}
        assert (await client.post("/records", json=short, headers=bearer(small))).status_code == 201
        assert (await client.get("/games/short", headers=bearer(small))).status_code == 200  # room left

        long = {"command_id": "long", "record": long_card_record(), "game_id": "long"}
        refused = await client.post("/records", json=long, headers=bearer(small))
        body = problem(refused, 429, "rate-limited")
        assert "this import enters 762 inputs, which counts as 762 requests" in body["detail"]
        assert 1 <= int(refused.headers["Retry-After"]) <= WINDOW_SECONDS
        await assert_not_stored(client, "long")

        assert (await client.post("/records", json=long, headers=bearer(large))).status_code == 201
        problem(await client.get("/games/long", headers=bearer(large)), 429, "rate-limited")
        assert (await client.get("/games/long", headers=bearer(other))).status_code == 200
