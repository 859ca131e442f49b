"""docs/permissions.md's "Series routes" table and a fresh target for each of its cells, shared by
the REST walk (``test_series_permission_matrix.py``) and the GraphQL one
(``test_graphql_permission_matrix.py``).

Every target is an online UA5 series of the club's first four players. A decision's target is a
series whose game 1 is over and which asks something; for the ``player`` column it asks that
very player (the others' questions answered first, through the service, as their players would),
for every other column it asks somebody the caller is not."""

from __future__ import annotations

import itertools
import re
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from litestar import Litestar

from services.game.application.series import SeriesService
from services.game.edge.series_http import DecisionRequest, series_service
from tests.integration.api.conftest import resources_of
from tests.integration.clubs.conftest import Person
from tests.integration.league_api.conftest import Clubs, post
from tests.integration.league_api.test_permission_matrix import COLUMNS, MATRIX
from tests.unit.game.undead.test_series_service import play_to_end

SECTION = "## Series routes"
ROW = re.compile(r"^\| (?P<method>[A-Z]+) `(?P<path>[^`]+)` \|(?P<cells>.*)\|$")

SeriesTarget = Callable[[Person | None], Awaitable[tuple[str | None, dict[str, Any]]]]
"""Prepares a fresh target for one caller: (the series id of the path, or None; REST's body)."""


def series_matrix() -> list[tuple[str, str, list[int]]]:
    lines = MATRIX.read_text().splitlines()
    start = lines.index(SECTION)
    header = next(line for line in lines[start:] if line.startswith("| series route |"))
    assert [c.strip() for c in header.strip("|").split("|")][1:] == COLUMNS
    rows = []
    for line in lines[start + 1 :]:
        if line.startswith("## "):
            break
        match = ROW.match(line)
        if match:
            cells = [int(c) for c in match["cells"].split("|")]
            assert len(cells) == len(COLUMNS), line
            rows.append((match["method"], match["path"], cells))
    return rows


def series_targets(app: Litestar, client: httpx.AsyncClient, c: Clubs) -> dict[str, SeriesTarget]:
    counter = itertools.count(1)
    service: SeriesService = series_service(resources_of(app).gateway)
    players = c.players[:4]
    asked_player = players[0]
    members = [{"member_id": p.account_id, "name": p.display_name} for p in players]
    current: list[str] = []

    async def opened() -> str:
        series_id = f"matrix-{next(counter)}"
        body = {
            "command_id": series_id,
            "series_id": series_id,
            "club_id": c.home,
            "mode": "online",
            "modules": ["UA5"],
            "members": members,
        }
        await post(client, "/series", c.organiser, body)
        return series_id

    async def asking(caller: Person | None) -> tuple[str, dict[str, Any]]:
        """A series that asks a question: of ``asked_player`` when the caller is that player."""
        for _ in range(30):
            if not current:
                series_id = await opened()
                await play_to_end(service.games, f"{series_id}.g1", next(counter))
                current.append(series_id)
            series_id = current[-1]
            asked = (await service.view(await service.load(series_id))).asked
            if asked is None:
                current.clear()
                continue
            answer = _answer(asked)
            if caller is asked_player and asked["member_id"] != asked_player.account_id:
                await service.decide(
                    series_id,
                    DecisionRequest(command_id=f"by-{next(counter)}", **answer).entry(),
                    member_id=asked["member_id"],
                    scorekeeper=False,
                    command_id=f"by-{next(counter)}",
                )
                continue
            return series_id, {"command_id": f"d-{next(counter)}", **answer}
        raise AssertionError("no series asked a question")

    async def open_target(caller: Person | None) -> tuple[str | None, dict[str, Any]]:
        series_id = f"open-{next(counter)}"
        return None, {
            "command_id": series_id,
            "series_id": series_id,
            "club_id": c.home,
            "mode": "online",
            "modules": ["UA5"],
            "members": members,
        }

    async def close_target(caller: Person | None) -> tuple[str | None, dict[str, Any]]:
        return await opened(), {"command_id": f"close-{next(counter)}", "reason": "matrix"}

    return {
        "POST /series": open_target,
        "POST /series/{series}/decisions": asking,
        "POST /series/{series}/close": close_target,
    }


def _answer(asked: dict[str, Any]) -> dict[str, Any]:
    """The first option of what the series asks, as REST's body has it."""
    answer: dict[str, Any] = {"kind": asked["ask"], "seat": asked["seat"]}
    first = asked["among"][0]
    match asked["ask"]:
        case "next_sheriff":
            answer["sheriff"] = first
        case "keep_character":
            answer["keep"] = first == "yes"
        case _:
            answer["character"] = first
    return answer
