"""A league command id names one command (services/runtime/idempotency.py): the same command by
the same caller under it again is a retry (200, the first answer, nothing stored); other content
or another caller under it is 409 ``command-id-reused`` and stores nothing. Walked for every
league write of the REST API. A command id is the league's (as a game's is the game's): another
league's stream does not know it."""

from __future__ import annotations

from typing import Any

import httpx
from litestar import Litestar

from tests.integration.clubs.conftest import Person
from tests.integration.league_api.conftest import (
    LEAGUE,
    SEASON,
    TOURNAMENT,
    clubs,
    post,
    seated_league,
    writes,
)

ROUND = f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds/1"


async def spend(
    app: Litestar,
    client: httpx.AsyncClient,
    command_id: str,
    path: str,
    body: dict[str, Any],
    other: tuple[str, dict[str, Any]],
    caller: Person,
    stranger: Person,
) -> dict[str, Any]:
    """``body`` at ``path`` under ``command_id`` (201), its exact retry (200, the same answer),
    then ``other`` (another path or body) under the id and the same body by ``stranger`` (who may
    send it): both 409 ``command-id-reused``, nothing stored. The first answer."""
    sent = body | {"command_id": command_id}
    first = await post(client, path, caller, sent)
    retried = await client.post(path, json=sent, headers=caller.auth)
    assert retried.status_code == 200 and retried.json() == first, (path, retried.text)
    before = await writes(app)
    other_path, other_body = other
    reused = await client.post(other_path, json=other_body | {"command_id": command_id}, headers=caller.auth)
    assert reused.status_code == 409, (other_path, reused.text)
    assert reused.json()["type"].endswith("/command-id-reused") and command_id in reused.json()["detail"]
    foreign = await client.post(path, json=sent, headers=stranger.auth)
    assert foreign.status_code == 409, (path, foreign.text)
    assert foreign.json()["type"].endswith("/command-id-reused")
    assert await writes(app) == before, path
    return first


async def test_a_void_under_a_spent_command_id_voids_nothing(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    await seated_league(client, c)
    one = (await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "online"}))["game_id"]
    two = (await post(client, f"{ROUND}/tables/2/game", c.organiser, {"mode": "online"}))["game_id"]
    void_one, void_two = f"/leagues/{LEAGUE}/games/{one}/void", f"/leagues/{LEAGUE}/games/{two}/void"
    first = await post(client, void_one, c.referee, {"reason": "a seat was swapped", "command_id": "v"})
    before = await writes(app)
    refused = await client.post(
        void_two, json={"reason": "dice lost", "command_id": "v"}, headers=c.referee.auth
    )
    assert refused.status_code == 409 and refused.json()["type"].endswith("/command-id-reused"), refused.text
    assert await writes(app) == before
    # the exact retry still answers as the first call did; another caller's is refused
    again = await client.post(
        void_one, json={"reason": "a seat was swapped", "command_id": "v"}, headers=c.referee.auth
    )
    assert again.status_code == 200 and again.json() == first, again.text
    stranger = await client.post(
        void_one, json={"reason": "a seat was swapped", "command_id": "v"}, headers=c.organiser.auth
    )
    assert stranger.status_code == 409 and stranger.json()["type"].endswith("/command-id-reused"), (
        stranger.text
    )
    assert await writes(app) == before
    # table 2 was never voided: it is voided now, under a new id
    voided = await post(client, void_two, c.referee, {"reason": "dice lost", "command_id": "v2"})
    assert voided["game_id"] == two


async def test_every_league_write_refuses_a_spent_command_id(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    seated = await seated_league(client, c)
    org, admin = c.organiser, c.admin
    leagues = f"/clubs/{c.home}/leagues"
    await spend(
        app, client, "found", leagues, {"league_id": "second", "name": "Second"},
        (leagues, {"league_id": "second", "name": "Third"}), org, admin,
    )  # fmt: skip
    seasons = f"/leagues/{LEAGUE}/seasons"
    await spend(
        app, client, "season", seasons, {"season_id": "autumn", "name": "Autumn"},
        (seasons, {"season_id": "winter", "name": "Winter"}), org, admin,
    )  # fmt: skip
    entrants = f"/leagues/{LEAGUE}/seasons/autumn/entrants"
    await spend(
        app, client, "enrol", entrants, {"member_ids": [c.keeper.account_id]},
        (entrants, {"member_ids": [c.referee.account_id]}), org, admin,
    )  # fmt: skip
    tournaments = f"/leagues/{LEAGUE}/seasons/{SEASON}/tournaments"
    await spend(
        app, client, "tournament", tournaments, {"tournament_id": "cup", "name": "Cup"},
        (tournaments, {"tournament_id": "plate", "name": "Plate"}), org, admin,
    )  # fmt: skip
    # a round the server numbers and seeds itself is retried without either
    cup_rounds = f"/leagues/{LEAGUE}/tournaments/cup/rounds"
    await spend(app, client, "seat", cup_rounds, {}, (cup_rounds, {"seed": "other"}), org, admin)
    await spend(
        app, client, "schedule", f"{ROUND}/tables/1/game", {"mode": "online"},
        (f"{ROUND}/tables/2/game", {"mode": "online"}), org, admin,
    )  # fmt: skip
    first, second = (t["members"][0]["member_id"] for t in seated["tables"][:2])
    await spend(
        app, client, "forfeit", f"{ROUND}/forfeits", {"table": 1, "member_id": first, "kind": "forfeit"},
        (f"{ROUND}/forfeits", {"table": 2, "member_id": second, "kind": "forfeit"}), org, admin,
    )  # fmt: skip
    await spend(
        app, client, "close-round", f"{ROUND}/close", {},
        (f"/leagues/{LEAGUE}/tournaments/cup/rounds/1/close", {}), org, admin,
    )  # fmt: skip
    await spend(
        app, client, "close-season", f"/leagues/{LEAGUE}/seasons/autumn/close", {},
        (f"/leagues/{LEAGUE}/seasons/{SEASON}/close", {}), org, admin,
    )  # fmt: skip
