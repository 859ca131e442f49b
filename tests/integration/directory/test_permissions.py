"""docs/permissions.md's "Lists and searches" table, walked: every read route × every caller,
each answered with the status the table says (the club lists' two rows are in the first matrix,
walked by tests/integration/clubs/test_permission_matrix.py). A refusal names nothing of the
club it refuses."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from litestar import Litestar

from services.league.commands import FoundClub, FoundLeague, OpenSeason, OpenTournament
from tests.integration.clubs.conftest import Person, found, grant, join_by_invite, person
from tests.integration.directory.conftest import catch_up, league_of

DOCS = Path(__file__).resolve().parents[3] / "docs" / "permissions.md"
ROW = re.compile(r"^\| `(?P<path>/[^`]+)` \((?P<method>[A-Z]+)\) \|(?P<cells>.*)\|$")
COLUMNS = [
    "admin", "organiser", "referee", "scorekeeper", "player",
    "foreign admin", "foreign organiser", "anonymous",
]  # fmt: skip


def table() -> list[tuple[str, str, list[int]]]:
    lines = DOCS.read_text().splitlines()
    start = lines.index("## Lists and searches")
    header = next(line for line in lines[start:] if line.startswith("| read |"))
    assert [c.strip() for c in header.strip("|").split("|")][1:] == COLUMNS
    rows = []
    for line in lines[start:]:
        if line.startswith("## ") and line != lines[start]:
            break
        match = ROW.match(line)
        if match:
            cells = [int(c) for c in match["cells"].split("|")]
            assert len(cells) == len(COLUMNS), line
            rows.append((match["method"], match["path"], cells))
    return rows


def test_the_table_covers_every_directory_route_outside_the_clubs(app: Litestar) -> None:
    from services.directory.http import DIRECTORY_HANDLERS

    served = {
        (method, re.sub(r":\w+\}", "}", path))
        for handler in DIRECTORY_HANDLERS
        for path in handler.paths
        for method in handler.http_methods
        if not path.startswith("/clubs/")
    }
    names = {"{league}": "{league_id}", "{tournament}": "{tournament_id}", "{member}": "{member_id}"}
    documented = {
        (method, re.sub(r"\{\w+\}", lambda m: names.get(m[0], m[0]), path)) for method, path, _ in table()
    }
    assert documented == served


async def test_every_cell_of_the_lists_table(app: Litestar, client: httpx.AsyncClient) -> None:
    rosa = await person(app, client, "rosa", "Rosa Admin")
    home = await found(client, rosa, "Home")
    callers: dict[str, Person | None] = {"admin": rosa, "anonymous": None}
    for role in ("organiser", "referee", "scorekeeper"):
        holder = await person(app, client, role, f"{role.title()} Holder")
        scope = {"game_id": "table-1"} if role == "scorekeeper" else {}
        await grant(client, rosa, home, holder, role, **scope)
        callers[role] = holder
    callers["player"] = await join_by_invite(client, rosa, home, "player", "Pia Player")
    mallory = await person(app, client, "mallory", "Mallory Away")
    away = await found(client, mallory, "Away")
    olga = await person(app, client, "olga", "Olga Away")
    await grant(client, mallory, away, olga, "organiser")
    callers["foreign admin"], callers["foreign organiser"] = mallory, olga

    league = league_of(app)
    await league.execute(FoundClub(club_id=home, name="Home"), command_id="mirror")
    await league.execute(
        FoundLeague(league_id="home_league", club_id=home, name="Home League"), command_id="league"
    )
    await league.execute(OpenSeason(league_id="home_league", season_id="s1", name="Spring"), command_id="s")
    await league.execute(
        OpenTournament(league_id="home_league", season_id="s1", tournament_id="t1", name="Nights"),
        command_id="t",
    )
    await catch_up(app)

    rows = table()
    assert len(rows) == 6
    for method, path, cells in rows:
        url = path.replace("{league}", "home_league").replace("{tournament}", "t1")
        url = url.replace("{member}", rosa.account_id)
        for column, expected in zip(COLUMNS, cells, strict=True):
            caller = callers[column]
            answer = await client.request(method, url, headers={} if caller is None else caller.auth)
            assert answer.status_code == expected, (method, path, column, answer.text)
            if expected == 403:
                assert answer.json()["type"].endswith("/role-required")
                assert "Home League" not in answer.text and "Nights" not in answer.text
            if expected == 200 and path == "/leagues/{league}":
                assert answer.json()["name"] == "Home League"
                assert answer.json()["club"] == {"club_id": home, "name": "Home"}
