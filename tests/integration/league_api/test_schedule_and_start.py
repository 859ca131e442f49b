"""A league's schedule says when and how a table plays (the date and time, the ruleset, the
decision timer), and a scheduled table game is started from it by its scorekeeper: with the
seats as dealt at the physical table, or dealt by the server, each player then reading only
his own role (issue 22). Every write is checked against the caller's current role in the
league's club: another club's organiser, a revoked organiser or scorekeeper and a player of the
table are refused, and nothing is stored."""

from __future__ import annotations

import json
from typing import Any

import httpx
from litestar import Litestar

from tests.integration.clubs.test_clubs import pool_of
from tests.integration.directory.conftest import catch_up
from tests.integration.league_api.conftest import (
    LEAGUE,
    SEASON,
    TOURNAMENT,
    Clubs,
    clubs,
    post,
    seated_league,
    writes,
)
from tests.integration.league_api.test_graphql import mutate
from tests.integration.league_api.test_standings_and_ratings import consume

ROUND = f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds/1"
START = f"{ROUND}/tables/1/game/start"
CHARACTERS = ("paul_regret", "willy_the_kid", "black_jack", "lucky_duke")
OTHER_ROLES = ("renegade", "outlaw", "outlaw")
WHEN = "2026-12-01T19:30:00+01:00"


async def _schedule_table(client: httpx.AsyncClient, c: Clubs, **extra: Any) -> dict[str, Any]:
    body = {
        "mode": "table",
        "scorekeeper": c.keeper.account_id,
        "starts_at": WHEN,
        "ruleset": {"modules": ["OS1"]},
        "options": {"decision_timeout_seconds": 90},
        **extra,
    }
    return await post(client, f"{ROUND}/tables/1/game", c.organiser, body)


TOURNAMENT_PAGE = (
    "query($l: ID!, $t: ID!) { leagueTournament(leagueId: $l, tournamentId: $t)"
    " { rounds { tables { members } } } }"
)


async def tournament_page_order(client: httpx.AsyncClient, c: Clubs) -> list[str]:
    """Table 1's members as the tournament page lists them (its GraphQL query)."""
    variables = {"l": LEAGUE, "t": TOURNAMENT}
    answer = await client.post(
        "/graphql", json={"query": TOURNAMENT_PAGE, "variables": variables}, headers=c.keeper.auth
    )
    members: list[str] = answer.json()["data"]["leagueTournament"]["rounds"][0]["tables"][0]["members"]
    return members


def _seats(table: dict[str, Any], order: list[str] | None = None) -> list[dict[str, str]]:
    members = order or [m["member_id"] for m in table["members"]]
    roles = list(OTHER_ROLES)
    roles.insert(members.index(table["sheriff"]["member_id"]), "sheriff")
    return [
        {"member_id": m, "role": r, "character": ch}
        for m, r, ch in zip(members, roles, CHARACTERS, strict=True)
    ]


async def test_the_schedule_keeps_when_the_ruleset_and_the_timer(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    await seated_league(client, c)
    scheduled = await _schedule_table(client, c)
    assert scheduled["starts_at"] == "2026-12-01T18:30:00Z", scheduled  # the same instant, in UTC
    assert scheduled["ruleset"] == "dice OS1" and scheduled["decision_timeout_seconds"] == 90
    [event] = await pool_of(app).fetch(
        "SELECT data::jsonb AS data FROM events WHERE stream_name = $1 AND type = 'GameScheduled'",
        f"league-{LEAGUE}",
    )
    recorded = json.loads(event["data"])  # the event is the truth the reservation copies
    assert recorded["ruleset"] == "dice OS1" and recorded["decision_timeout_seconds"] == 90, recorded
    assert recorded["starts_at"] == "2026-12-01T19:30:00+01:00", recorded
    # an online game is created with them at once; GraphQL says the same
    given = {
        "leagueId": LEAGUE, "tournamentId": TOURNAMENT, "round": 1, "table": 2, "mode": "online",
        "startsAt": "2026-12-01T20:00:00Z", "options": {"decisionTimeoutSeconds": 60},
    }  # fmt: skip
    data, errors = await mutate(
        client, c.organiser, "scheduleGame", "ScheduleGameInput", given,
        "{ gameId gameCreated startsAt ruleset decisionTimeoutSeconds }",
    )  # fmt: skip
    assert not errors and data is not None, errors
    online = data
    assert online["gameCreated"] and online["decisionTimeoutSeconds"] == 60, online
    assert online["startsAt"].startswith("2026-12-01T20:00:00")
    assert await created_options(client, c, online["gameId"]) == {"decision_timeout_seconds": 60}


async def created_options(client: httpx.AsyncClient, c: Clubs, game_id: str) -> dict[str, Any]:
    """The options the game was created with (its first event)."""
    events = (await client.get(f"/games/{game_id}/events?limit=1", headers=c.organiser.auth)).json()
    options: dict[str, Any] = events[0]["data"]["options"]
    return options


async def test_a_bad_schedule_is_refused_naming_the_problem(app: Litestar, client: httpx.AsyncClient) -> None:
    c = await clubs(app, client)
    await seated_league(client, c)
    before = await writes(app)
    for body, status, words in (
        ({"mode": "table", "starts_at": "2026-12-01T19:30:00"}, 400, "timezone"),
        ({"mode": "table", "starts_at": "next tuesday"}, 400, "starts_at"),
        ({"mode": "table", "ruleset": {"modules": ["OS9"]}}, 422, "OS9"),
        ({"mode": "table", "options": {"decision_timeout_seconds": 0}}, 400, "decision_timeout_seconds"),
    ):
        refused = await client.post(f"{ROUND}/tables/1/game", json=body, headers=c.organiser.auth)
        assert refused.status_code == status, (body, refused.text)
        assert words in refused.text, refused.text
    assert await writes(app) == before


async def test_only_the_clubs_current_organisers_schedule(app: Litestar, client: httpx.AsyncClient) -> None:
    c = await clubs(app, client)
    await seated_league(client, c)
    body = {"mode": "table", "starts_at": WHEN, "ruleset": {"modules": ["OS1"]}}
    before = await writes(app)
    refused = await client.post(f"{ROUND}/tables/1/game", json=body, headers=c.foreign_organiser.auth)
    assert refused.status_code == 403, refused.text
    organiser = f"/clubs/{c.home}/roles/{c.organiser.account_id}/organiser"
    revoked = await client.delete(organiser, headers=c.admin.auth)
    assert revoked.status_code == 204, revoked.text
    before = await writes(app)
    refused = await client.post(f"{ROUND}/tables/1/game", json=body, headers=c.organiser.auth)
    assert refused.status_code == 403, refused.text
    assert refused.json()["type"].endswith("role-required")
    assert await writes(app) == before


async def test_the_scorekeeper_starts_the_scheduled_game_with_the_seats_dealt_at_the_table(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    table = (await seated_league(client, c))["tables"][0]
    scheduled = await _schedule_table(client, c)
    # clockwise as they sat down at the physical table: not the seating's order
    sat = [m["member_id"] for m in table["members"]][::-1]
    started = await post(client, START, c.keeper, {"seats": _seats(table, sat)})
    assert started["game_id"] == scheduled["game_id"]
    state = started["state"]
    assert state["mode"] == "table" and state["ruleset"]["modules"] == ["OS1"], state["ruleset"]
    assert await created_options(client, c, started["game_id"]) == {"decision_timeout_seconds": 90}
    assert state["context"] == {
        "league_id": LEAGUE, "season_id": SEASON, "tournament_id": TOURNAMENT, "round": 1, "table": 1,
    }  # fmt: skip
    assert [p["member_id"] for p in state["players"]] == sat
    # the tournament page and the league's rounds list them in the game's seat order (item 8a)
    await consume(app)
    await catch_up(app)
    assert await tournament_page_order(client, c) == sat
    rounds = await client.get(f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds", headers=c.keeper.auth)
    assert [m["member_id"] for m in rounds.json()["items"][0]["tables"][0]["members"]] == sat
    # the keep-score page reads it now (it answered 404 "no game" before it was created)
    assert (await client.get(f"/games/{scheduled['game_id']}", headers=c.keeper.auth)).status_code == 200
    # started once: a second start is a 409 naming the game, nothing stored
    before = await writes(app)
    again = await client.post(START, json={"seats": _seats(table)}, headers=c.keeper.auth)
    assert again.status_code == 409, again.text
    assert await writes(app) == before


async def test_the_server_deals_a_table_game_and_each_player_reads_only_his_own_role(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    table = (await seated_league(client, c))["tables"][0]
    scheduled = await _schedule_table(client, c, ruleset=None)  # the base game: a roll comes first
    started = await post(client, START, c.referee, {})
    game_id = started["game_id"]
    assert game_id == scheduled["game_id"]
    members = {m["member_id"] for m in table["members"]}
    players = started["state"]["players"]
    assert {p["member_id"] for p in players} == members
    sheriff = next(p for p in players if p["member_id"] == table["sheriff"]["member_id"])
    assert sheriff["role"] == "sheriff"  # the rotation's Sheriff holds the star
    assert all(p["character"] for p in players)
    for player in (c.by_id(m) for m in members):
        seen = (await client.get(f"/games/{game_id}", headers=player.auth)).json()["players"]
        mine = next(p for p in seen if p["member_id"] == player.account_id)
        assert mine["role"] is not None, mine
        hidden = [p for p in seen if p["member_id"] not in (player.account_id, sheriff["member_id"])]
        assert hidden and all(p["role"] is None for p in hidden), seen
    # the tables list the seats in the game's order (item 8a), with what the schedule said
    seat_order = [p["member_id"] for p in players]
    await consume(app)
    await catch_up(app)
    rounds = await client.get(f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds", headers=c.keeper.auth)
    listed = rounds.json()["items"][0]["tables"][0]
    assert [m["member_id"] for m in listed["members"]] == seat_order
    assert listed["game"]["starts_at"] == "2026-12-01T18:30:00Z" and listed["game"]["ruleset"] == "dice"
    assert listed["game"]["decision_timeout_seconds"] == 90
    assert await tournament_page_order(client, c) == seat_order
    # the scorekeeper enters the dice rolled at the table
    awaiting = started["state"]["awaiting"]
    rolled = await client.post(
        f"/games/{game_id}/commands",
        json={"command": {"type": "RollDice", "player": awaiting["player"],
                          "faces": ["beer", "beer", "shoot1", "arrow", "gatling"]},
              "command_id": "first-roll"},
        headers=c.keeper.auth,
    )  # fmt: skip
    assert rolled.status_code == 200, rolled.text


async def test_only_the_tables_keepers_start_it(app: Litestar, client: httpx.AsyncClient) -> None:
    c = await clubs(app, client)
    table = (await seated_league(client, c))["tables"][0]
    await _schedule_table(client, c)
    player = c.by_id(table["members"][0]["member_id"])
    before = await writes(app)
    for who in (c.foreign_organiser, c.foreign_admin, player):
        refused = await client.post(START, json={}, headers=who.auth)
        assert refused.status_code == 403, refused.text
        assert refused.json()["type"].endswith("role-required")
    anonymous = await client.post(START, json={})
    assert anonymous.status_code == 401, anonymous.text
    for role in ("scorekeeper", "player"):
        grant = f"/clubs/{c.home}/roles/{c.keeper.account_id}/{role}"
        revoked = await client.delete(grant, headers=c.admin.auth)
        assert revoked.status_code == 204, revoked.text
    before = await writes(app)
    refused = await client.post(START, json={}, headers=c.keeper.auth)
    assert refused.status_code == 403, refused.text
    assert await writes(app) == before


async def test_a_bad_start_is_refused_naming_the_problem(app: Litestar, client: httpx.AsyncClient) -> None:
    c = await clubs(app, client)
    round_one = await seated_league(client, c)
    table = round_one["tables"][0]
    before = await writes(app)
    unscheduled = await client.post(START, json={}, headers=c.organiser.auth)
    assert unscheduled.status_code == 404 and "schedule it first" in unscheduled.text, unscheduled.text
    await _schedule_table(client, c)
    await post(client, f"{ROUND}/tables/2/game", c.organiser, {"mode": "online"})
    before = await writes(app)
    online = await client.post(f"{ROUND}/tables/2/game/start", json={}, headers=c.organiser.auth)
    assert online.status_code == 422 and "online game" in online.text, online.text
    stranger = _seats(table)
    stranger[0] = stranger[0] | {"member_id": round_one["tables"][1]["members"][0]["member_id"]}
    refused = await client.post(START, json={"seats": stranger}, headers=c.keeper.auth)
    assert refused.status_code == 422 and "not seated at table 1" in refused.text, refused.text
    unknown = [s | {"character": "nobody_at_all"} if i == 0 else s for i, s in enumerate(_seats(table))]
    refused = await client.post(START, json={"seats": unknown}, headers=c.keeper.auth)
    assert refused.status_code == 422 and "nobody_at_all" in refused.text, refused.text
    assert await writes(app) == before


async def test_graphql_starts_it_as_rest_does(app: Litestar, client: httpx.AsyncClient) -> None:
    c = await clubs(app, client)
    table = (await seated_league(client, c))["tables"][0]
    scheduled = await _schedule_table(client, c)
    seats = [
        {"memberId": s["member_id"], "role": s["role"], "character": s["character"]} for s in _seats(table)
    ]
    given = {"leagueId": LEAGUE, "tournamentId": TOURNAMENT, "round": 1, "table": 1, "seats": seats}
    select = "{ gameId game { mode } }"
    before = await writes(app)
    data, errors = await mutate(
        client, c.foreign_organiser, "startTableGame", "StartTableGameInput", given, select
    )
    assert data is None and errors[0]["extensions"]["problem"]["status"] == 403, errors
    assert await writes(app) == before
    data, errors = await mutate(client, c.keeper, "startTableGame", "StartTableGameInput", given, select)
    assert not errors and data == {"gameId": scheduled["game_id"], "game": {"mode": "table"}}, errors


async def test_a_scheduled_game_id_says_where_it_is_scheduled_before_the_game_exists(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    """What a "Keep score" link to a game not created yet needs: the table's schedule page."""
    c = await clubs(app, client)
    await seated_league(client, c)
    scheduled = await _schedule_table(client, c)
    game_id = scheduled["game_id"]
    assert (await client.get(f"/games/{game_id}", headers=c.keeper.auth)).status_code == 404
    where = await client.get(f"/games/{game_id}/schedule", headers=c.keeper.auth)
    assert where.status_code == 200, where.text
    assert where.json() == {
        "game_id": game_id, "league_id": LEAGUE, "tournament_id": TOURNAMENT, "round": 1, "table": 1,
        "mode": "table",
    }  # fmt: skip
    # a members-only league: a stranger learns nothing of it, signed in or not
    assert (
        await client.get(f"/games/{game_id}/schedule", headers=c.foreign_organiser.auth)
    ).status_code == 403
    assert (await client.get(f"/games/{game_id}/schedule")).status_code == 401
    unknown = await client.get("/games/g-nobody-scheduled-this/schedule", headers=c.keeper.auth)
    assert unknown.status_code == 404 and "no league scheduled it" in unknown.text, unknown.text
