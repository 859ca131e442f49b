"""The lists after an organiser ran a round through the public league API alone: the club's
league, the round's tables with named members, the scheduled games' modes, a no-show, a void;
the online game (in progress, its roles dealt) listed with names and nothing hidden."""

from __future__ import annotations

import httpx
from litestar import Litestar

from tests.integration.directory.conftest import catch_up
from tests.integration.league_api.conftest import LEAGUE, SEASON, TOURNAMENT, clubs, post, seated_league

ROUND = f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds/1"


async def test_a_round_run_through_the_league_api_is_listed_by_name(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    seated = await seated_league(client, c)
    online = await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "online"})
    await post(
        client, f"{ROUND}/tables/2/game", c.organiser,
        {"mode": "table", "scorekeeper": c.keeper.account_id, "game_id": "tuesday-r1-t2"},
    )  # fmt: skip
    first = seated["tables"][0]
    absent = first["members"][1]
    await post(client, f"{ROUND}/forfeits", c.organiser, {"table": 1, "member_id": absent["member_id"]})
    await catch_up(app)

    player = c.by_id(first["members"][0]["member_id"])
    leagues = (await client.get(f"/clubs/{c.home}/leagues", headers=player.auth)).json()
    assert [(item["league_id"], item["name"]) for item in leagues["items"]] == [(LEAGUE, "Tuesday League")]
    league = (await client.get(f"/leagues/{LEAGUE}", headers=c.referee.auth)).json()
    assert [(s["season_id"], s["entrants"]) for s in league["seasons"]] == [(SEASON, len(c.players))]

    rounds_path = f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds"
    rounds = (await client.get(rounds_path, headers=c.keeper.auth)).json()
    [listed] = rounds["items"]
    tables = {t["table"]: t for t in listed["tables"]}
    # the league API's own names and ids, in the seat order the online game's deal gave them
    game_seats = (await client.get(f"/games/{online['game_id']}", headers=c.keeper.auth)).json()["players"]
    in_seat_order = [
        next(m for m in first["members"] if m["member_id"] == p["member_id"]) for p in game_seats
    ]
    assert tables[1]["members"] == in_seat_order
    assert tables[1]["sheriff"] == first["sheriff"]
    assert tables[1]["game"]["game_id"] == online["game_id"] and tables[1]["game"]["mode"] == "online"
    assert tables[1]["game"]["status"] == "ongoing"
    assert tables[1]["forfeits"] == [{"member": absent, "kind": "forfeit", "reason": ""}]
    assert tables[2]["game"] == {
        "game_id": "tuesday-r1-t2", "mode": "table", "status": None, "winning_side": None, "voided": False,
        "replayable": True, "shown_as": None, "starts_at": None, "ruleset": None,
        "decision_timeout_seconds": None,
    }  # fmt: skip
    assert [b["display_name"] for b in listed["byes"]] == [b["display_name"] for b in seated["byes"]]

    games = (await client.get(f"/games?league={LEAGUE}")).json()["items"]
    [game] = games
    assert game["game_id"] == online["game_id"] and game["status"] == "ongoing"
    people = sorted((p["member_id"], p["display_name"]) for p in game["players"])
    assert people == sorted((m["member_id"], m["display_name"]) for m in first["members"])
    assert all(p["seat"] and p["won"] is None for p in game["players"]) and game["winning_side"] is None
    text = str(games).lower()
    assert not any(role in text for role in ("sheriff", "renegade", "outlaw", "deputy"))
    mine = (await client.get("/me/games", headers=player.auth)).json()["items"]
    assert [g["game_id"] for g in mine] == [online["game_id"]]

    void = f"/leagues/{LEAGUE}/games/{online['game_id']}/void"
    await post(client, void, c.referee, {"reason": "dice entered twice"})
    await catch_up(app)
    assert (await client.get(f"/games?league={LEAGUE}")).json()["items"][0]["voided"] is True
