"""Schemathesis against the app's own OpenAPI document (issue 9, "bad inputs, generated"): no
generated request gets a 500, and a refused one writes nothing.

The app runs under uvicorn in the test's event loop (conftest.py) on the real embedded
PostgreSQL and Redis; schemathesis's synchronous client runs in a worker thread, and reads the
store's counts through the app's own pool in the app's loop. Every request carries an organiser
token, so creates, joins, commands and imports get past authentication and reach the bounds,
the rules and the store. Bounded (a few dozen examples per operation) and, under ``CI=true``,
derandomised by the hypothesis profile of tests/conftest.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import asyncpg
import httpx
import msgspec
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from litestar import Litestar
from schemathesis.generation.modes import GenerationMode

from services.game.edge.http import ContextIn, OptionsIn
from tests.integration.api.conftest import resources_of

EXAMPLES_PER_OPERATION = 15
"""Per operation and mode (positive: fits the schema; negative: does not)."""

Run = Callable[[Coroutine[Any, Any, Any]], Any]


async def _stored(pool: asyncpg.Pool) -> tuple[int, int]:
    row = await pool.fetchrow("SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM access_tokens)")
    assert row is not None
    return row[0], row[1]


def _fuzz(url: str, token: str, pool: asyncpg.Pool, run: Run) -> dict[str, int]:
    """Every operation of the schema, ``EXAMPLES_PER_OPERATION`` generated requests each;
    returns how many answers of each status class there were."""
    schema = schemathesis.openapi.from_url(f"{url}/schema/openapi.json")
    seen: dict[str, int] = {}
    operations = [result.ok() for result in schema.get_all_operations()]
    modes = (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    for operation, mode in [(o, m) for o in operations for m in modes]:

        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy(generation_mode=mode))
        def request(case: schemathesis.Case) -> None:
            before = run(_stored(pool))
            response = case.call(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=30)
            where = f"{case.method} {case.formatted_path} -> {response.status_code}: {response.text[:300]}"
            assert response.status_code < 500, where
            status = f"{response.status_code // 100}xx"
            seen[status] = seen.get(status, 0) + 1
            if response.status_code >= 400:
                assert run(_stored(pool)) == before, f"a refusal wrote something: {where}"

        try:
            request()
        except Unsatisfiable:
            # an operation without parameters or body (GET /health) has nothing to break
            if mode is not GenerationMode.NEGATIVE:
                raise
    return seen


async def test_generated_requests_get_no_500_and_refusals_write_nothing(
    app: Litestar, base_url: str, organiser_token: str, client: httpx.AsyncClient
) -> None:
    pool = resources_of(app).pool
    loop = asyncio.get_running_loop()

    def run(coroutine: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=30)

    seen = await asyncio.to_thread(_fuzz, f"http://{base_url}", organiser_token, pool, run)
    print("answers by status class:", seen)
    assert seen.get("4xx", 0) > 0  # it did reach the bounds

    # whatever was accepted is a game that loads and answers, and holds nothing out of bounds
    games = await pool.fetch("SELECT name FROM streams WHERE category = 'game'")
    for row in games:
        game_id = row["name"].split("-", 1)[1]
        response = await client.get(f"/games/{game_id}")
        assert response.status_code == 200, (game_id, response.text)
    created = await pool.fetch("SELECT data::text FROM events WHERE type = 'GameCreated'")
    for row in created:
        data = msgspec.json.decode(row["data"])
        msgspec.convert(data.get("context", {}), ContextIn)
        msgspec.convert(data.get("options", {}), OptionsIn)
    assert (await client.get("/health")).status_code == 200
