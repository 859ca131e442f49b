"""docs/permissions.md's matrix, walked: every route × every caller, each answered with the
status the table says. The table is the test's input, so the docs cannot drift from the code."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from litestar import Litestar

from tests.integration.clubs.conftest import Person, found, grant, join_by_invite, person

MATRIX = Path(__file__).resolve().parents[3] / "docs" / "permissions.md"
ROW = re.compile(r"^\| `(?P<method>[A-Z]+) (?P<path>[^`]+)` \|(?P<cells>.*)\|$")


def matrix() -> tuple[list[str], list[tuple[str, str, list[int]]]]:
    lines = MATRIX.read_text().splitlines()
    header = next(line for line in lines if line.startswith("| route |"))
    columns = [c.strip() for c in header.strip("|").split("|")][1:]
    rows = []
    for line in lines:
        match = ROW.match(line)
        if match:
            cells = [int(c) for c in match["cells"].split("|")]
            assert len(cells) == len(columns), line
            rows.append((match["method"], match["path"], cells))
    return columns, rows


def test_the_matrix_covers_every_club_route(app: Litestar) -> None:
    columns, rows = matrix()
    assert columns == [
        "admin", "organiser", "referee", "scorekeeper", "player",
        "foreign admin", "foreign organiser", "anonymous",
    ]  # fmt: skip
    served = {
        (method, re.sub(r":\w+\}", "}", route.path))
        for route in app.routes
        if route.path.startswith(("/clubs", "/me/clubs", "/me/tokens"))
        for method in getattr(route, "methods", ())
        if method not in ("OPTIONS", "HEAD")
    }
    names = {
        "{id}": "{club_id}",
        "{account}": "{account_id}",
        "{token}": "{token_id}",
        "{member}": "{member_id}",
    }
    documented = {
        (method, re.sub(r"\{\w+\}", lambda m: names.get(m[0], m[0]), path)) for method, path, _ in rows
    }
    assert documented == served


async def own_token(client: httpx.AsyncClient, caller: Person) -> str:
    made = await client.post("/me/tokens", json={"label": "to revoke"}, headers=caller.auth)
    assert made.status_code == 201, made.text
    token_id: str = made.json()["token_id"]
    return token_id


async def test_every_cell_of_the_matrix(app: Litestar, client: httpx.AsyncClient) -> None:
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
    target = await person(app, client, "target", "Tess Target")
    await grant(client, rosa, home, target, "player")
    # a member registered by name, who has no login yet: the login link's member
    registered = await client.post(
        "/clubs/" + home + "/members", json={"display_name": "Nobody Yet"}, headers=rosa.auth
    )
    assert registered.status_code == 201, registered.text
    unclaimed = registered.json()["member_id"]

    columns, rows = matrix()
    for method, path, cells in rows:
        for column, expected in zip(columns, cells, strict=True):
            caller = callers[column]
            headers = {} if caller is None else caller.auth
            url = path.replace("{id}", home).replace("{account}", target.account_id)
            url = url.replace("{role}", "player").replace("{member}", unclaimed)
            if "{token}" in url:  # the caller's own API token (anonymous: any id)
                token_id = "none" if caller is None else await own_token(client, caller)
                url = url.replace("{token}", token_id)
            body: dict[str, object] | None = {
                "POST /clubs": {"name": "New Club"},
                "POST /clubs/{id}/invites": {"display_name": "Newcomer"},
                "POST /clubs/{id}/roles": {"account_id": target.account_id, "role": "referee"},
                "POST /clubs/{id}/leagues": {"name": "Matrix League"},
                "POST /clubs/{id}/members": {"display_name": "Registered"},
                "POST /me/tokens": {"label": "script", "grants": []},
            }.get(f"{method} {path}")
            answer = await client.request(method, url, json=body, headers=headers)
            assert answer.status_code == expected, (method, path, column, answer.text)
            # put the target back as it was, so every cell starts from the same club
            if method == "POST" and path.endswith("/roles") and expected == 201:
                undo = await client.delete(
                    f"/clubs/{home}/roles/{target.account_id}/referee", headers=rosa.auth
                )
                assert undo.status_code == 204
            if method == "DELETE" and "/roles/" in path and expected == 204:
                await grant(client, rosa, home, target, "player")
