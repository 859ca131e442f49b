"""Who may not: a foreign club's admin and organiser are refused every league write (403 naming
the club, nothing changed anywhere), a player is refused, a referee may void but not schedule;
bad input is a 4xx naming the field, and a refused enrolment enrols nobody."""

from __future__ import annotations

from typing import Any

import httpx
from litestar import Litestar

from tests.integration.league_api.conftest import (
    LEAGUE,
    SEASON,
    TOURNAMENT,
    Clubs,
    clubs,
    league_version,
    post,
    seated_league,
    writes,
)

ROUND = f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds/1"


def every_write(c: Clubs, seated: dict[str, Any], scheduled_game: str) -> list[tuple[str, dict[str, Any]]]:
    """Each league route with a body that its club's organiser would have answered 2xx."""
    first = seated["tables"][0]["members"][0]["member_id"]
    return [
        (f"/clubs/{c.home}/leagues", {"league_id": "other", "name": "Forged"}),
        (f"/leagues/{LEAGUE}/seasons", {"season_id": "autumn", "name": "Autumn"}),
        (f"/leagues/{LEAGUE}/seasons/{SEASON}/entrants", {"member_ids": [c.keeper.account_id]}),
        (f"/leagues/{LEAGUE}/seasons/{SEASON}/tournaments", {"tournament_id": "cup", "name": "Cup"}),
        (f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds", {}),
        (f"{ROUND}/tables/2/game", {"mode": "online", "game_id": "forged-game"}),
        (f"{ROUND}/forfeits", {"table": 1, "member_id": first, "kind": "forfeit"}),
        (f"{ROUND}/close", {}),
        (f"/leagues/{LEAGUE}/seasons/{SEASON}/close", {}),
        (f"/leagues/{LEAGUE}/games/{scheduled_game}/void", {"reason": "forged"}),
    ]


async def test_a_foreign_club_is_refused_every_league_write_and_nothing_changes(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    seated = await seated_league(client, c)
    game = (await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "online"}))["game_id"]
    before = await writes(app)
    for outsider in (c.foreign_organiser, c.foreign_admin):
        for path, body in every_write(c, seated, game):
            refused = await post(client, path, outsider, body, status=403)
            assert refused["type"].endswith("/role-required"), (path, refused)
            assert c.home in refused["detail"] and c.away not in refused["detail"], (path, refused)
    assert await writes(app) == before
    # the foreign organiser's own club is no way in either: a league is its own club's
    forged = await post(
        client, f"/clubs/{c.away}/leagues", c.foreign_organiser, {"league_id": LEAGUE, "name": "Mine"},
        status=409,
    )  # fmt: skip
    assert forged["type"].endswith("/already-exists")
    assert await writes(app) == before


async def test_a_player_is_refused_and_a_referee_voids_but_does_not_schedule(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    seated = await seated_league(client, c)
    game = (await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "online"}))["game_id"]
    before = await writes(app)
    player = c.players[0]
    for path, body in every_write(c, seated, game):
        await post(client, path, player, body, status=403)
        await post(client, path, c.keeper, body, status=403)  # a scorekeeper organises nothing
        if not path.endswith("/void"):
            await post(client, path, c.referee, body, status=403)
        await post(client, path, None, body, status=401)
    assert await writes(app) == before
    await post(client, f"/leagues/{LEAGUE}/games/{game}/void", c.referee, {"reason": "a seat was swapped"})
    assert await writes(app) != before


async def test_bad_input_names_the_field_and_stores_nothing(app: Litestar, client: httpx.AsyncClient) -> None:
    c = await clubs(app, client)
    seated = await seated_league(client, c)
    version = await league_version(app)
    first = seated["tables"][0]["members"][0]["member_id"]
    second_table = seated["tables"][1]["members"][0]["member_id"]
    keeper, stranger = c.keeper.account_id, c.foreign_admin.account_id
    cases: list[tuple[str, dict[str, Any], int, str]] = [
        (f"{ROUND}/forfeits", {"table": 1, "member_id": first, "kind": "resigned"}, 400, "kind"),
        (f"{ROUND}/forfeits", {"table": 1, "member_id": first, "reason": "x" * 501}, 400, "reason"),
        (f"{ROUND}/forfeits", {"table": 1, "member_id": second_table}, 404, "unknown-player"),
        (f"{ROUND}/forfeits", {"table": 1, "member_id": first, "colour": "red"}, 400, "colour"),
        (f"{ROUND}/tables/1/game", {"mode": "postal"}, 400, "mode"),
        (f"{ROUND}/tables/1/game", {"mode": "online", "scorekeeper": keeper}, 422, "scorekeeper"),
        (f"{ROUND}/tables/2/game", {"mode": "table", "scorekeeper": stranger}, 422, "member"),
        (f"{ROUND}/tables/99/game", {"mode": "online"}, 404, "table"),
        (f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds/0/close", {}, 400, "round"),
        (f"/leagues/{LEAGUE}/games/nowhere/void", {"reason": "no such game"}, 404, "nowhere"),
        (f"/leagues/{LEAGUE}/games/nowhere/void", {"reason": ""}, 400, "reason"),
        (f"/leagues/{LEAGUE}/seasons", {"season_id": "has-dash", "name": "Bad"}, 422, "season id"),
        (f"/leagues/{LEAGUE}/seasons", {"name": "Bell\x07"}, 400, "name"),
        (f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds", {"round": 3}, 409, "round 2 next"),
        ("/leagues/nope/seasons", {"name": "Ghost"}, 404, "nope"),
    ]
    for path, body, status, named in cases:
        answer = await post(client, path, c.organiser, body, status=status)
        assert named in answer["detail"] or named == answer.get("field") or answer["type"].endswith(named), (
            path,
            body,
            answer,
        )
    assert await league_version(app) == version


async def test_an_enrolment_with_one_stranger_enrols_nobody(app: Litestar, client: httpx.AsyncClient) -> None:
    c = await clubs(app, client)
    await post(client, f"/clubs/{c.home}/leagues", c.organiser, {"league_id": LEAGUE, "name": "L"})
    await post(client, f"/leagues/{LEAGUE}/seasons", c.organiser, {"season_id": SEASON, "name": "S"})
    version = await league_version(app)
    body = {"member_ids": [c.players[0].account_id, c.foreign_admin.account_id]}
    entrants = f"/leagues/{LEAGUE}/seasons/{SEASON}/entrants"
    refused = await post(client, entrants, c.organiser, body, status=404)
    assert c.foreign_admin.account_id in refused["detail"] and c.home in refused["detail"]
    assert await league_version(app) == version
    enrolled = await post(
        client, f"/leagues/{LEAGUE}/seasons/{SEASON}/entrants", c.organiser,
        {"member_ids": [c.players[0].account_id]},
    )  # fmt: skip
    assert enrolled["enrolled"] == [{"member_id": c.players[0].account_id, "display_name": "Player 0"}]
