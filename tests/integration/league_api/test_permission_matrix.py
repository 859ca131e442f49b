"""docs/permissions.md's "League routes" table, walked: every league write × every caller, each
on a target of its own (prepared by the organiser), answered with the status the table says; a
refused call changes no stream."""

from __future__ import annotations

import itertools
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from litestar import Litestar

from tests.integration.clubs.conftest import Person
from tests.integration.league_api.conftest import LEAGUE, SEASON, Clubs, clubs, post, writes
from tests.integration.league_api.sheets import law_win

CARDS = "cardnight"
"""The matrix's card-game league: result sheets are for card games only."""

MATRIX = Path(__file__).resolve().parents[3] / "docs" / "permissions.md"
ROW = re.compile(r"^\| (?P<method>[A-Z]+) \| `(?P<path>[^`]+)` \|(?P<cells>.*)\|$")
COLUMNS = [
    "admin", "organiser", "referee", "scorekeeper", "player",
    "foreign admin", "foreign organiser", "anonymous",
]  # fmt: skip


def league_matrix() -> list[tuple[str, str, list[int]]]:
    lines = MATRIX.read_text().splitlines()
    start = lines.index("## League routes")
    header = next(line for line in lines[start:] if line.startswith("| method | route |"))
    assert [c.strip() for c in header.strip("|").split("|")][2:] == COLUMNS
    rows = []
    for line in lines[start:]:
        match = ROW.match(line)
        if match:
            cells = [int(c) for c in match["cells"].split("|")]
            assert len(cells) == len(COLUMNS), line
            rows.append((match["method"], match["path"], cells))
    return rows


def test_the_league_table_covers_every_league_write(app: Litestar) -> None:
    served = {
        (method, re.sub(r":\w+\}", "}", route.path))
        for route in app.routes
        if route.path.startswith("/leagues/")
        for method in getattr(route, "methods", ())
        if method == "POST"
    }
    names = {
        "{league}": "{league_id}", "{season}": "{season_id}", "{tournament}": "{tournament_id}",
        "{game}": "{game_id}",
    }  # fmt: skip
    documented = {
        (method, re.sub(r"\{\w+\}", lambda m: names.get(m[0], m[0]), path))
        for method, path, _ in league_matrix()
    }
    assert documented == served


Target = Callable[[], Awaitable[tuple[dict[str, str], dict[str, Any]]]]
"""Prepares a fresh target: (the path's placeholders, the body)."""


def targets(client: httpx.AsyncClient, c: Clubs) -> dict[str, Target]:
    counter = itertools.count(1)
    org = c.organiser
    members = [p.account_id for p in c.players]

    async def season() -> str:
        season_id = f"s{next(counter)}"
        await post(client, f"/leagues/{LEAGUE}/seasons", org, {"season_id": season_id, "name": season_id})
        return season_id

    async def seated_round() -> dict[str, Any]:
        tournament_id = f"t{next(counter)}"
        await post(
            client, f"/leagues/{LEAGUE}/seasons/{SEASON}/tournaments", org,
            {"tournament_id": tournament_id, "name": tournament_id},
        )  # fmt: skip
        seated = await post(client, f"/leagues/{LEAGUE}/tournaments/{tournament_id}/rounds", org, {})
        return {"tournament": tournament_id, **seated}

    async def visibility() -> tuple[dict[str, str], dict[str, Any]]:
        # members-only again (the organiser), so the call makes it public: a change, 201
        path = f"/leagues/{LEAGUE}/visibility"
        back = await client.post(path, json={"visibility": "members"}, headers=org.auth)
        assert back.status_code in (200, 201), back.text
        return {}, {"visibility": "public"}

    async def new_season() -> tuple[dict[str, str], dict[str, Any]]:
        return {}, {"name": f"Season {next(counter)}"}

    async def enrolment() -> tuple[dict[str, str], dict[str, Any]]:
        return {"season": await season()}, {"member_ids": members[:3]}

    async def new_tournament() -> tuple[dict[str, str], dict[str, Any]]:
        return {"season": SEASON}, {"name": f"Tournament {next(counter)}"}

    async def closing_season() -> tuple[dict[str, str], dict[str, Any]]:
        return {"season": await season()}, {}

    async def seating() -> tuple[dict[str, str], dict[str, Any]]:
        tournament_id = f"t{next(counter)}"
        await post(
            client, f"/leagues/{LEAGUE}/seasons/{SEASON}/tournaments", org,
            {"tournament_id": tournament_id, "name": tournament_id},
        )  # fmt: skip
        return {"tournament": tournament_id}, {}

    async def scheduling() -> tuple[dict[str, str], dict[str, Any]]:
        seated = await seated_round()
        return {"tournament": seated["tournament"], "round": "1", "table": "1"}, {"mode": "table"}

    async def forfeit() -> tuple[dict[str, str], dict[str, Any]]:
        seated = await seated_round()
        member = seated["tables"][0]["members"][0]["member_id"]
        return {"tournament": seated["tournament"], "round": "1"}, {"table": 1, "member_id": member}

    async def closing_round() -> tuple[dict[str, str], dict[str, Any]]:
        seated = await seated_round()
        return {"tournament": seated["tournament"], "round": "1"}, {}

    async def void() -> tuple[dict[str, str], dict[str, Any]]:
        seated = await seated_round()
        path = f"/leagues/{LEAGUE}/tournaments/{seated['tournament']}/rounds/1/tables/1/game"
        game = await post(client, path, org, {"mode": "table"})
        return {"game": game["game_id"]}, {"reason": "entered at the wrong table"}

    async def starting() -> tuple[dict[str, str], dict[str, Any]]:
        # a scheduled table game with no scorekeeper (the matrix's keeps another's), dealt by
        # the server
        seated = await seated_round()
        path = f"/leagues/{LEAGUE}/tournaments/{seated['tournament']}/rounds/1/tables/1/game"
        await post(client, path, org, {"mode": "table"})
        return {"tournament": seated["tournament"], "round": "1", "table": "1"}, {}

    async def replacing() -> tuple[dict[str, str], dict[str, Any]]:
        seated = await seated_round()
        path = f"/leagues/{LEAGUE}/tournaments/{seated['tournament']}/rounds/1/tables/1/game"
        game = await post(client, path, org, {"mode": "online"})
        return {"game": game["game_id"], "seat": "p1"}, {"bot": True}

    cards_league: list[str] = []

    async def result_sheet() -> tuple[dict[str, str], dict[str, Any]]:
        # a table of a cards league whose game has no scorekeeper (the matrix's keeps another's)
        if not cards_league:
            await post(
                client,
                f"/clubs/{c.home}/leagues",
                org,
                {"league_id": CARDS, "name": "C", "game_type": "cards"},
            )
            await post(client, f"/leagues/{CARDS}/seasons", org, {"season_id": SEASON, "name": "Main"})
            await post(client, f"/leagues/{CARDS}/seasons/{SEASON}/entrants", org, {"member_ids": members})
            cards_league.append(CARDS)
        tournament_id = f"t{next(counter)}"
        await post(
            client, f"/leagues/{CARDS}/seasons/{SEASON}/tournaments", org,
            {"tournament_id": tournament_id, "name": tournament_id},
        )  # fmt: skip
        seated = await post(client, f"/leagues/{CARDS}/tournaments/{tournament_id}/rounds", org, {})
        rounds = f"/leagues/{CARDS}/tournaments/{tournament_id}/rounds/1"
        await post(client, f"{rounds}/tables/1/game", org, {"mode": "table"})
        table = seated["tables"][0]
        sheet = law_win([m["member_id"] for m in table["members"]], table["sheriff"]["member_id"])
        return {"league": CARDS, "tournament": tournament_id, "round": "1", "table": "1"}, sheet

    base = "/leagues/{league}"
    return {
        f"{base}/visibility": visibility,
        f"{base}/seasons": new_season,
        f"{base}/seasons/{{season}}/entrants": enrolment,
        f"{base}/seasons/{{season}}/tournaments": new_tournament,
        f"{base}/seasons/{{season}}/close": closing_season,
        f"{base}/tournaments/{{tournament}}/rounds": seating,
        f"{base}/tournaments/{{tournament}}/rounds/{{round}}/tables/{{table}}/game": scheduling,
        f"{base}/tournaments/{{tournament}}/rounds/{{round}}/tables/{{table}}/game/start": starting,
        f"{base}/tournaments/{{tournament}}/rounds/{{round}}/tables/{{table}}/result-sheet": result_sheet,
        f"{base}/tournaments/{{tournament}}/rounds/{{round}}/forfeits": forfeit,
        f"{base}/tournaments/{{tournament}}/rounds/{{round}}/close": closing_round,
        f"{base}/games/{{game}}/void": void,
        f"{base}/games/{{game}}/seats/{{seat}}/replace": replacing,
    }


async def test_every_cell_of_the_league_table(app: Litestar, client: httpx.AsyncClient) -> None:
    c = await clubs(app, client)
    org = c.organiser
    await post(client, f"/clubs/{c.home}/leagues", org, {"league_id": LEAGUE, "name": "Matrix League"})
    await post(client, f"/leagues/{LEAGUE}/seasons", org, {"season_id": SEASON, "name": "Main"})
    members = [p.account_id for p in c.players]
    await post(client, f"/leagues/{LEAGUE}/seasons/{SEASON}/entrants", org, {"member_ids": members})
    # the scorekeeper column: Kim keeps the score of one table game of this league
    await post(
        client, f"/leagues/{LEAGUE}/seasons/{SEASON}/tournaments", org, {"tournament_id": "kept", "name": "K"}
    )
    await post(client, f"/leagues/{LEAGUE}/tournaments/kept/rounds", org, {})
    await post(
        client, f"/leagues/{LEAGUE}/tournaments/kept/rounds/1/tables/1/game", org,
        {"mode": "table", "scorekeeper": c.keeper.account_id},
    )  # fmt: skip
    callers: dict[str, Person | None] = {
        "admin": c.admin, "organiser": org, "referee": c.referee, "scorekeeper": c.keeper,
        "player": c.players[0], "foreign admin": c.foreign_admin, "foreign organiser": c.foreign_organiser,
        "anonymous": None,
    }  # fmt: skip
    prepare = targets(client, c)
    for method, path, cells in league_matrix():
        assert method == "POST"
        for column, expected in zip(COLUMNS, cells, strict=True):
            values, body = await prepare[path]()
            url = path
            for name, value in values.items():
                url = url.replace(f"{{{name}}}", value)
            url = url.replace("{league}", LEAGUE)
            before = await writes(app)
            caller = callers[column]
            answer = await client.post(url, json=body, headers={} if caller is None else caller.auth)
            assert answer.status_code == expected, (path, column, answer.text)
            if expected >= 400:
                assert await writes(app) == before, (path, column)
