"""An organiser runs a round through the REST API alone: found a league, open a season, enrol
the club's members, open a tournament, seat a round (Swiss, the rotation's Sheriff), schedule an
online game (created at once with those members and that Sheriff) and a table game (its
scorekeeper granted for that game alone), record a no-show, close the round; a referee voids a
game with a reason."""

from __future__ import annotations

import httpx
from litestar import Litestar

from tests.integration.league_api.conftest import (
    LEAGUE,
    SEASON,
    TOURNAMENT,
    clubs,
    league_version,
    post,
    seated_league,
)

ROUND = f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds/1"


async def test_an_organiser_runs_a_round_through_the_api(app: Litestar, client: httpx.AsyncClient) -> None:
    c = await clubs(app, client)

    founded = await post(
        client, f"/clubs/{c.home}/leagues", c.organiser,
        {"league_id": LEAGUE, "name": "Tuesday League", "command_id": "found-1"},
    )  # fmt: skip
    assert founded["club_id"] == c.home and founded["points"]["win"] == 3
    again = await post(
        client, f"/clubs/{c.home}/leagues", c.organiser,
        {"league_id": LEAGUE, "name": "Tuesday League", "command_id": "found-1"}, status=200,
    )  # fmt: skip
    assert again == founded  # the same command id: the first answer, nothing new

    await post(client, f"/leagues/{LEAGUE}/seasons", c.organiser, {"season_id": SEASON, "name": "Spring"})
    members = [p.account_id for p in c.players]
    enrolled = await post(
        client, f"/leagues/{LEAGUE}/seasons/{SEASON}/entrants", c.organiser, {"member_ids": members}
    )
    assert [e["display_name"] for e in enrolled["enrolled"]] == [p.display_name for p in c.players]
    await post(
        client, f"/leagues/{LEAGUE}/seasons/{SEASON}/tournaments", c.organiser,
        {"tournament_id": TOURNAMENT, "name": "Tuesday Nights"},
    )  # fmt: skip

    seated = await post(client, f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds", c.organiser, {})
    assert seated["round"] == 1 and "seed" not in seated
    at_tables = [m["member_id"] for t in seated["tables"] for m in t["members"]]
    assert sorted(at_tables + [b["member_id"] for b in seated["byes"]]) == sorted(members)
    assert len(seated["tables"]) >= 2
    for table in seated["tables"]:
        assert table["sheriff"] in table["members"]  # four or more: the rotation names a Sheriff
        assert all(m["display_name"] == c.by_id(m["member_id"]).display_name for m in table["members"])

    # an online game: created now, with the seating's members in order and its Sheriff
    first = seated["tables"][0]
    online = await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "online"})
    assert online["game_id"].startswith("g-") and online["game_created"] is True
    assert online["members"] == first["members"] and online["sheriff"] == first["sheriff"]
    seated_player = c.by_id(first["members"][0]["member_id"])
    game = await client.get(f"/games/{online['game_id']}", headers=seated_player.auth)
    assert game.status_code == 200, game.text
    state = game.json()
    assert [j["member_id"] for j in state["joined"]] == [m["member_id"] for m in first["members"]]
    assert state["context"] == {
        "league_id": LEAGUE, "season_id": SEASON, "tournament_id": TOURNAMENT, "round": 1, "table": 1,
    }  # fmt: skip
    sheriffs = [p["member_id"] for p in state["players"] if p.get("role") == "sheriff"]
    assert sheriffs == [first["sheriff"]["member_id"]]
    assert "player_tokens" not in online  # the organiser never receives the players' tokens

    # a table game: its scorekeeper holds `scorekeeper` for that game, and for nothing else
    table = await post(
        client, f"{ROUND}/tables/2/game", c.organiser,
        {"mode": "table", "scorekeeper": c.keeper.account_id, "game_id": "tuesday-r1-t2"},
    )  # fmt: skip
    assert table["game_created"] is False and table["scorekeeper"]["display_name"] == "Kim Keeper"
    club = (await client.get(f"/clubs/{c.home}", headers=c.admin.auth)).json()
    keeper_grants = next(m["roles"] for m in club["members"] if m["account_id"] == c.keeper.account_id)
    assert {"role": "scorekeeper", "game_id": "tuesday-r1-t2"} in keeper_grants

    # a no-show at table 1, once
    absent = first["members"][1]["member_id"]
    forfeit = {"table": 1, "member_id": absent, "kind": "no-show", "reason": "missed the last stagecoach"}
    recorded = await post(client, f"{ROUND}/forfeits", c.organiser, forfeit)
    assert recorded["member"] == first["members"][1] and recorded["kind"] == "no-show"
    twice = await post(client, f"{ROUND}/forfeits", c.organiser, forfeit, status=409)
    assert twice["type"].endswith("/already-exists")

    # closing the round: once; nothing more is scheduled or forfeited in it
    await post(client, f"{ROUND}/close", c.organiser)
    assert (await post(client, f"{ROUND}/close", c.organiser, status=409))["type"].endswith("/round-closed")
    before = await league_version(app)
    late = await post(client, f"{ROUND}/tables/2/game", c.organiser, {"mode": "online"}, status=409)
    assert "closed" in late["detail"]
    assert await league_version(app) == before

    # the referee voids the online game, with a reason; voiding twice is refused
    voided = await post(
        client, f"/leagues/{LEAGUE}/games/{online['game_id']}/void", c.referee,
        {"reason": "the Sheriff's dice were entered twice"},
    )  # fmt: skip
    assert voided == {
        "league_id": LEAGUE, "game_id": online["game_id"], "reason": "the Sheriff's dice were entered twice",
    }  # fmt: skip
    void = f"/leagues/{LEAGUE}/games/{online['game_id']}/void"
    again_void = await post(client, void, c.referee, {"reason": "again"}, status=409)
    assert again_void["type"].endswith("/already-exists")

    await post(client, f"/leagues/{LEAGUE}/seasons/{SEASON}/close", c.admin)


async def test_scheduling_again_with_the_same_command_id_answers_the_same_game(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    await seated_league(client, c)
    body = {"mode": "online", "command_id": "schedule-t1"}
    first = await post(client, f"{ROUND}/tables/1/game", c.organiser, body)
    version = await league_version(app)
    retried = await post(client, f"{ROUND}/tables/1/game", c.organiser, body, status=200)
    assert retried["game_id"] == first["game_id"]
    assert await league_version(app) == version
    # another request for the same table (a new command id, so a new game id) is refused
    other = await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "online"}, status=409)
    assert first["game_id"] in other["detail"]
    assert await league_version(app) == version


async def test_the_organisers_own_tables_keep_the_rotations_sheriff(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    ids = [p.account_id for p in c.players]
    await post(client, f"/clubs/{c.home}/leagues", c.admin, {"league_id": LEAGUE, "name": "L"})
    await post(client, f"/leagues/{LEAGUE}/seasons", c.admin, {"season_id": SEASON, "name": "S"})
    await post(client, f"/leagues/{LEAGUE}/seasons/{SEASON}/entrants", c.admin, {"member_ids": ids})
    await post(
        client, f"/leagues/{LEAGUE}/seasons/{SEASON}/tournaments", c.admin,
        {"tournament_id": TOURNAMENT, "name": "T"},
    )  # fmt: skip
    seated = await post(
        client, f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds", c.admin,
        {"tables": [ids[:4], ids[4:7]]},
    )  # fmt: skip
    assert [[m["member_id"] for m in t["members"]] for t in seated["tables"]] == [ids[:4], ids[4:7]]
    assert seated["tables"][0]["sheriff"]["member_id"] in ids[:4]
    assert seated["tables"][1]["sheriff"] is None  # three players: no Sheriff
    assert [b["member_id"] for b in seated["byes"]] == [ids[7]]
