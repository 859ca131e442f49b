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
from services.api.rate_limit import Client, ClientBudgets
from services.api.settings import LimitSettings, ServerSettings
from services.game.edge.cost import REQUESTS_PER_INPUT
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
    """Budgets of 660 requests per 60 s, an input counting 4: a 10-input import leaves room for
    many reads; a 151-input one (604) leaves too little for a second's first 50 inputs (200),
    which is refused with 429, nothing stored. Another token is not touched."""
    assert REQUESTS_PER_INPUT == 4
    settings = dataclasses.replace(api_settings, limits=LimitSettings(rate_limit="660 per 60 seconds"))
    app = create_app(settings)
    async with (
        uvicorn_serving(app) as address,
        httpx.AsyncClient(base_url=f"http://{address}", timeout=60) as client,
    ):
        tokens = resources_of(app).gateway.tokens
        small, large, other = [await tokens.issue_organiser(f"club-{n}") for n in range(3)]
        record = a_finished_table_game(3)
        tiny = {
            "command_id": "tiny",
            "record": {**record, "inputs": record["inputs"][:10]},
            "game_id": "tiny",
        }
        assert (await client.post("/records", json=tiny, headers=bearer(small))).status_code == 201
        for _ in range(20):
            assert (await client.get("/games/tiny", headers=bearer(small))).status_code == 200

        short = {"command_id": "short", "record": record, "game_id": "short"}
        assert (await client.post("/records", json=short, headers=bearer(large))).status_code == 201
        again = {**short, "command_id": "again", "game_id": "again"}
        refused = await client.post("/records", json=again, headers=bearer(large))
        body = problem(refused, 429, "rate-limited")
        assert (
            "this import enters 151 inputs, 4 requests each: its first 50, which counts as 200 requests"
            in (body["detail"])
        )
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        await assert_not_stored(client, "again")
        assert (await client.get("/games/short", headers=bearer(other))).status_code == 200


async def test_a_long_import_goes_on_at_its_callers_rate_limit(
    api_settings: ApiSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A budget of 200 requests per 2 s and a 151-input import (604 requests): its first 50
    inputs pass at once, and the rest wait for the budget, chunk by chunk, until every input is
    entered (charges counted where the limiter answers them)."""
    answers: list[tuple[int, int | None]] = []
    charge = ClientBudgets.charge

    async def counted(self: ClientBudgets, client: Client, requests: int) -> int | None:
        wait = await charge(self, client, requests)
        answers.append((requests, wait))
        return wait

    monkeypatch.setattr(ClientBudgets, "charge", counted)
    settings = dataclasses.replace(api_settings, limits=LimitSettings(rate_limit="200 per 2 seconds"))
    app = create_app(settings)
    async with (
        uvicorn_serving(app) as address,
        httpx.AsyncClient(base_url=f"http://{address}", timeout=120) as client,
    ):
        token = await resources_of(app).gateway.tokens.issue_organiser("club")
        record = a_finished_table_game(3)
        body = {"command_id": "paced", "record": record, "game_id": "paced"}
        imported = await client.post("/records", json=body, headers=bearer(token))
        assert imported.status_code == 201, imported.text
        assert imported.json()["inputs"] == 151
    paid = [requests for requests, wait in answers if wait is None]
    assert paid[:3] == [1, 199, 200]  # the request, the first 50 inputs, the next 50 (after a wait)
    assert sum(paid) == 1 + 151 * REQUESTS_PER_INPUT - 1
    assert any(wait is not None for _, wait in answers[:4])  # the budget was spent: it waited


async def test_imports_take_turns_and_one_kept_waiting_too_long_is_refused_with_nothing_stored(
    app: Litestar, client: httpx.AsyncClient, organiser_token: str
) -> None:
    """One import's work at a time in a process (the others wait for their turn): while the turn
    is taken, an import waits ``import_wait_seconds`` and is refused with 503 and Retry-After,
    nothing stored; once the turn is free, the same command enters the game."""
    gateway = resources_of(app).gateway
    gateway.import_wait_seconds = 0.2
    body = {"command_id": "turn", "record": a_finished_table_game(3), "game_id": "turn"}
    async with gateway._imports:  # another import's turn, held
        refused = await client.post("/records", json=body, headers=bearer(organiser_token))
        busy = problem(refused, 503, "imports-busy")
        assert "waited 0.2 s for its turn and nothing was stored" in busy["detail"]
        assert int(refused.headers["Retry-After"]) >= 1
        await assert_not_stored(client, "turn")
    imported = await client.post("/records", json=body, headers=bearer(organiser_token))
    assert imported.status_code == 201, imported.text
    assert imported.json()["inputs"] == 151
