"""The games lists over HTTP and GraphQL: bot games entered through the game service as a
scorekeeper would, finished, ongoing and in the lobby; filters, pages, names, and no hidden
information (two games that differ only in hidden roles are listed alike)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import httpx
import msgspec
from litestar import Litestar

from services.directory.projection import READ_MODEL_TABLES, reset
from services.game.application.lifecycle import GameMode
from services.game.application.service import Member, NewGame
from services.league.commands import FoundClub, RegisterPlayer
from tests.integration.clubs.conftest import found, person
from tests.integration.directory.conftest import catch_up, games_of, league_of, pool_of
from tests.integration.ratings.games import SCOREKEEPER, PlannedGame, enter_games, plan_games

CLAIMED = "claimed-league"


async def some_games(app: Litestar) -> tuple[list[PlannedGame], list[PlannedGame], str]:
    """Three finished table games, two still running, one online lobby; created in that order.
    Every table game claims a league in its context that never scheduled it."""
    service = games_of(app)
    finished = plan_games(3, 11, prefix="done", league_id=CLAIMED)
    running = plan_games(2, 12, prefix="live", league_id=CLAIMED)
    await enter_games(service, finished)
    await enter_games(service, running, stop_after=2)
    lobby = "lobby-1"
    await service.create_game(
        NewGame(
            mode=GameMode.ONLINE,
            player_count=4,
            members=(Member(member_id="member-1", name="Member-1"),),
            game_id=lobby,
        ),
        command_id="create-lobby",
        actor=SCOREKEEPER,
    )
    return finished, running, lobby


async def every_page(client: httpx.AsyncClient, query: str, limit: int) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    offset: int | None = 0
    while offset is not None:
        page = await client.get(f"/games?{query}&limit={limit}&offset={offset}")
        assert page.status_code == 200, page.text
        items += page.json()["items"]
        assert len(page.json()["items"]) <= limit
        offset = page.json()["next_offset"]
    return items


async def test_games_are_listed_newest_first_a_page_at_a_time_and_filtered(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    finished, running, lobby = await some_games(app)
    await catch_up(app)
    created = [g.game_id for g in finished] + [g.game_id for g in running] + [lobby]

    everything = await every_page(client, "", 2)
    assert [g["game_id"] for g in everything] == created[::-1]
    stamps = [datetime.fromisoformat(g["created_at"]) for g in everything]
    assert stamps == sorted(stamps, reverse=True)
    last = await client.get("/games?limit=2&offset=4")
    assert [g["game_id"] for g in last.json()["items"]] == created[1::-1]
    assert last.json()["next_offset"] is None

    by_state = {
        state: [g["game_id"] for g in await every_page(client, f"state={state}", 100)]
        for state in ("finished", "ongoing", "lobby", "abandoned")
    }
    assert by_state == {
        "finished": [g.game_id for g in finished][::-1],
        "ongoing": [g.game_id for g in running][::-1],
        "lobby": [lobby],
        "abandoned": [],
    }
    for game in everything:
        if game["status"] == "finished":
            assert game["winning_side"] and game["ended_at"]
            assert all(p["won"] is not None for p in game["players"])
        else:
            assert game["winning_side"] is None and all(p["won"] is None for p in game["players"])
        # the game claimed a league that never scheduled it: it is no league's game here
        assert game["league"] is None

    member = "member-3"
    seated = [g.game_id for g in (*finished, *running) if member in [s.member_id for s in g.seats]]
    assert seated, "the plan seats member-3 somewhere"
    assert [g["game_id"] for g in await every_page(client, f"player={member}", 100)] == seated[::-1]
    assert await every_page(client, f"league={CLAIMED}", 100) == []

    cut = everything[2]["created_at"]  # the third newest
    since = await every_page(client, f"from={cut.replace('+', '%2B')}", 100)
    assert [g["game_id"] for g in since] == created[::-1][:3]
    before = await every_page(client, f"to={cut.replace('+', '%2B')}", 100)
    assert [g["game_id"] for g in before] == created[::-1][3:]
    assert await every_page(client, "from=2999-01-01", 100) == []


async def test_players_without_an_account_are_named_by_their_club_then_their_seat(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    [planned] = plan_games(1, 5, prefix="named")
    # league ids have no dashes: the same game with members member_1, member_2, …
    seats = tuple(msgspec.structs.replace(s, member_id=s.member_id.replace("-", "_")) for s in planned.seats)
    game = PlannedGame(planned.game_id, seats, planned.commands, planned.context)
    registered = seats[0].member_id
    league = league_of(app)
    await league.execute(FoundClub(club_id="old_club", name="Old Club"), command_id="club")
    await league.execute(
        RegisterPlayer(club_id="old_club", member_id=registered, name="Registered One"), command_id="reg"
    )
    await enter_games(games_of(app), [game], stop_after=0)
    await catch_up(app)
    [listed] = (await client.get("/games")).json()["items"]
    seat_names = {s.member_id: s.name for s in seats}
    expected = {m: ("Registered One" if m == registered else seat_names[m]) for m in seat_names}
    assert {p["member_id"]: p["display_name"] for p in listed["players"]} == expected
    assert [p["seat"] for p in listed["players"]] == [f"p{i + 1}" for i in range(len(seats))]

    other = seats[1].member_id
    profile = await client.get(f"/members/{other}")
    assert profile.status_code == 200, profile.text
    assert profile.json()["display_name"] == seat_names[other]
    assert [g["game_id"] for g in profile.json()["games"]["items"]] == [game.game_id]
    assert (await client.get(f"/members/{registered}")).json()["display_name"] == "Registered One"
    assert (await client.get("/members/nobody")).status_code == 404


def swapped(game: PlannedGame, prefix: str) -> PlannedGame:
    """The same game with two hidden roles swapped (two seats that are not the Sheriff's and
    hold different roles), under another id."""
    seats = list(game.seats)
    hidden = [i for i, s in enumerate(seats) if s.role != "sheriff"]
    a = hidden[0]
    b = next(i for i in hidden if seats[i].role != seats[a].role)
    seats[a], seats[b] = (
        msgspec.structs.replace(seats[a], role=seats[b].role),
        msgspec.structs.replace(seats[b], role=seats[a].role),
    )
    return PlannedGame(f"{prefix}-{game.game_id}", tuple(seats), game.commands, game.context)


def public(item: dict[str, Any]) -> dict[str, Any]:
    """A listed game without what tells two games apart whatever their roles: id and clock."""
    return {k: v for k, v in item.items() if k not in ("game_id", "created_at", "started_at")}


GAMES_QUERY = """
query ($state: String, $limit: Int!) {
  games(state: $state, limit: $limit) {
    nextOffset
    items { gameId mode status gameType modules playerCount league { leagueId } winningSide voided
            players { memberId displayName seat won } }
  }
}
"""


async def test_two_games_differing_only_in_hidden_roles_are_listed_alike(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    [game] = plan_games(1, 21, prefix="twin")
    twin = swapped(game, "b")
    assert [s.role for s in twin.seats] != [s.role for s in game.seats]
    service = games_of(app)
    await enter_games(service, [game, twin], stop_after=4)
    await catch_up(app)

    listed = (await client.get("/games")).json()["items"]
    by_id = {g["game_id"]: g for g in listed}
    assert by_id[game.game_id]["status"] == by_id[twin.game_id]["status"] == "ongoing"
    assert public(by_id[game.game_id]) == public(by_id[twin.game_id])

    answer = await client.post("/graphql", json={"query": GAMES_QUERY, "variables": {"limit": 10}})
    assert answer.status_code == 200 and "errors" not in answer.json(), answer.text
    items = {g["gameId"]: g for g in answer.json()["data"]["games"]["items"]}
    assert {k: v for k, v in items[game.game_id].items() if k != "gameId"} == {
        k: v for k, v in items[twin.game_id].items() if k != "gameId"
    }

    # nothing of a role is kept: no column for it, and no role's name in any row
    pool = pool_of(app)
    columns = await pool.fetch(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_name = ANY($1::text[])",
        list(READ_MODEL_TABLES),
    )
    names = [c["column_name"] for c in columns]
    assert names and not [n for n in names if "role" in n or "character" in n]
    rows = [await pool.fetch(f"SELECT * FROM {table}") for table in READ_MODEL_TABLES]
    dumped = str(rows).lower()
    assert not any(role in dumped for role in ("renegade", "outlaw", "deputy"))


async def test_the_read_model_is_rebuilt_alike_from_the_events(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    await some_games(app)
    await catch_up(app)
    before = (await client.get("/games?limit=100")).json()
    async with pool_of(app).acquire() as connection:
        await reset(connection)
    assert (await client.get("/games")).json() == {"items": [], "next_offset": None}
    await catch_up(app)
    assert (await client.get("/games?limit=100")).json() == before


async def test_graphql_lists_are_the_clubs_and_refuse_a_bad_page_naming_the_argument(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    rosa = await person(app, client, "rosa", "Rosa Quick")
    club_id = await found(client, rosa, "Dodge City Dicers")
    stranger = await person(app, client, "zed", "Zed Outsider")
    query = """
    query ($club: ID!, $q: String, $limit: Int!) {
      clubMembers(clubId: $club, q: $q, limit: $limit) { nextOffset items { memberId displayName roles } }
    }
    """

    async def ask(who: dict[str, str], **variables: Any) -> dict[str, Any]:
        response = await client.post(
            "/graphql", json={"query": query, "variables": {"club": club_id, **variables}}, headers=who
        )
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    mine = await ask(rosa.auth, q="ROSA", limit=5)
    assert mine["data"]["clubMembers"] == {
        "nextOffset": None,
        "items": [{"memberId": rosa.account_id, "displayName": "Rosa Quick", "roles": ["admin"]}],
    }
    refused = await ask(stranger.auth, limit=5)
    [error] = refused["errors"]
    assert error["extensions"]["problem"]["status"] == 403 and "Rosa" not in str(refused)
    bad = await ask(rosa.auth, limit=0)
    [error] = bad["errors"]
    assert error["extensions"]["problem"]["status"] == 400 and "limit" in error["message"]
    anonymous = await ask({}, limit=5)
    assert anonymous["errors"][0]["extensions"]["problem"]["status"] == 401


async def test_a_games_modules_and_options_are_listed_apart(app: Litestar, client: httpx.AsyncClient) -> None:
    """``cards eight_players`` is the card game with one option and no module; ``dice OS1`` the
    dice game with one module and no option."""
    from services.game.rules.ruleset import parse_ruleset

    service = games_of(app)
    for game_id, ruleset in (("eight-lobby", "cards eight_players"), ("os1-lobby", "dice OS1")):
        await service.create_game(
            NewGame(
                mode=GameMode.ONLINE,
                player_count=8,
                members=(Member(member_id="member-1", name="Member-1"),),
                game_id=game_id,
                ruleset=parse_ruleset(ruleset),
            ),
            command_id=f"create-{game_id}",
            actor=SCOREKEEPER,
        )
    await catch_up(app)
    listed = {g["game_id"]: g for g in (await client.get("/games")).json()["items"]}
    eight, os1 = listed["eight-lobby"], listed["os1-lobby"]
    assert (eight["game_type"], eight["modules"], eight["options"]) == ("cards", [], ["eight_players"])
    assert (os1["game_type"], os1["modules"], os1["options"]) == ("dice", ["OS1"], [])
    query = "{ games(limit: 10) { items { gameId modules options } } }"
    items = (await client.post("/graphql", json={"query": query})).json()["data"]["games"]["items"]
    assert {g["gameId"]: (g["modules"], g["options"]) for g in items} == {
        "eight-lobby": ([], ["eight_players"]),
        "os1-lobby": (["OS1"], []),
    }
