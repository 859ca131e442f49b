"""docs/permissions.md's "Series routes" table, walked over REST: every series write × every
caller, each on a target of its own, answered with the status the table says; a refused call
changes no stream."""

from __future__ import annotations

import re

import httpx
from litestar import Litestar

from tests.integration.league_api.conftest import clubs, writes
from tests.integration.league_api.series_targets import series_matrix, series_targets
from tests.integration.league_api.test_permission_matrix import COLUMNS


def test_the_series_table_covers_every_series_write(app: Litestar) -> None:
    served = {
        (method, re.sub(r":\w+\}", "}", route.path).rstrip("/") or "/")
        for route in app.routes
        if route.path.startswith("/series")
        for method in getattr(route, "methods", ())
        if method == "POST"
    }
    documented = {(method, path.replace("{series}", "{series_id}")) for method, path, _ in series_matrix()}
    assert documented == served


async def test_every_cell_of_the_series_table(app: Litestar, client: httpx.AsyncClient) -> None:
    c = await clubs(app, client)
    callers = {
        "admin": c.admin, "organiser": c.organiser, "referee": c.referee, "scorekeeper": c.keeper,
        "player": c.players[0], "foreign admin": c.foreign_admin, "foreign organiser": c.foreign_organiser,
        "anonymous": None,
    }  # fmt: skip
    prepare = series_targets(app, client, c)
    for method, path, cells in series_matrix():
        assert method == "POST"
        for column, expected in zip(COLUMNS, cells, strict=True):
            caller = callers[column]
            series_id, body = await prepare[f"{method} {path}"](caller)
            url = path if series_id is None else path.replace("{series}", series_id)
            before = await writes(app)
            answer = await client.post(url, json=body, headers={} if caller is None else caller.auth)
            assert answer.status_code == expected, (path, column, answer.text)
            if expected >= 300:
                assert await writes(app) == before, (path, column)
