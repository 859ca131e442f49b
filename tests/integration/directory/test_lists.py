"""Lists and searches over HTTP (issue 11, "Lists and search"): the directory projection fills
from games played to the end through the services, every person is shown by display name with
their id kept for links, pages end with ``next_offset`` None, club lists are their club's."""

from __future__ import annotations

from typing import Any

import httpx
from litestar import Litestar

from services.league.bot_league import play_bot_round
from services.league.commands import (
    CloseRound,
    EnrollPlayer,
    FoundClub,
    FoundLeague,
    OpenSeason,
    OpenTournament,
    RecordForfeit,
    RegisterPlayer,
)
from services.league.vocabulary import SeatingPolicy
from tests.integration.clubs.conftest import Person, found, join_by_invite, person
from tests.integration.directory.conftest import catch_up, games_of, league_of

LEAGUE, SEASON, TOURNAMENT = "saloon", "s1", "nights"
ROUNDS = f"/leagues/{LEAGUE}/tournaments/{TOURNAMENT}/rounds"
NAMES = ("Rosa Quick", "Ada Lane", "Bo Marsh", "Cy Dunn", "Di Ford")


async def club_with_members(app: Litestar, client: httpx.AsyncClient) -> tuple[str, list[Person]]:
    rosa = await person(app, client, "rosa", NAMES[0])
    club_id = await found(client, rosa, "Dodge City Dicers")
    others = [
        await join_by_invite(client, rosa, club_id, name.replace(" ", ".").lower(), name)
        for name in NAMES[1:]
    ]
    return club_id, [rosa, *others]


async def league_round(app: Litestar, club_id: str, members: list[Person]) -> None:
    """A league of the club with one five-player table, played to the end by bots; the league
    club registers the members under names of its own (the accounts' names must win)."""
    league = league_of(app)
    await league.execute(FoundClub(club_id=club_id, name="Dodge City Dicers"), command_id="club")
    for m in members:
        await league.execute(
            RegisterPlayer(club_id=club_id, member_id=m.account_id, name=f"registered {m.account_id[:6]}"),
            command_id=f"reg/{m.account_id}",
        )
    await league.execute(
        FoundLeague(
            league_id=LEAGUE,
            club_id=club_id,
            name="Saloon League",
            seating=SeatingPolicy(allowed_sizes=(5,), preferred_size=5),
        ),
        command_id="league",
    )
    await league.execute(OpenSeason(league_id=LEAGUE, season_id=SEASON, name="Spring"), command_id="season")
    for m in members:
        await league.execute(
            EnrollPlayer(league_id=LEAGUE, season_id=SEASON, member_id=m.account_id),
            command_id=f"enrol/{m.account_id}",
        )
    await league.execute(
        OpenTournament(league_id=LEAGUE, season_id=SEASON, tournament_id=TOURNAMENT, name="League nights"),
        command_id="tournament",
    )
    await play_bot_round(league, games_of(app), LEAGUE, TOURNAMENT, 1, seed="directory")


LEAGUE_QUERY = """
query ($club: ID!, $league: ID!, $tournament: ID!) {
  clubLeagues(clubId: $club) { nextOffset items { leagueId name } }
  league(leagueId: $league) { name seasons { seasonId entrants } }
  tournamentRounds(leagueId: $league, tournamentId: $tournament) {
    nextOffset
    items { round closed tables { table members { memberId displayName } game { gameId status } } }
  }
  myGames(limit: 10) { nextOffset items { gameId } }
}
"""


def names(people: list[dict[str, Any]]) -> dict[str, str]:
    return {p["member_id"]: p["display_name"] for p in people}


async def test_a_league_game_played_to_the_end_is_listed_with_names_and_its_league(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    club_id, members = await club_with_members(app, client)
    await league_round(app, club_id, members)
    await catch_up(app)
    by_id = {m.account_id: m.display_name for m in members}

    listed = await client.get("/games")  # public: no token
    assert listed.status_code == 200, listed.text
    [game] = listed.json()["items"]
    assert listed.json()["next_offset"] is None
    assert game["status"] == "finished" and game["mode"] == "online" and game["game_type"] == "dice"
    assert game["started_at"] and game["ended_at"] and game["created_at"] <= game["ended_at"]
    assert game["league"] == {
        "league_id": LEAGUE,
        "name": "Saloon League",
        "club_id": club_id,
        "season_id": SEASON,
        "tournament_id": TOURNAMENT,
        "round": 1,
        "table": 1,
    }
    # the accounts' display names, not the league club's registered ones; ids kept as links
    assert names(game["players"]) == by_id
    assert sorted(p["seat"] for p in game["players"]) == ["p1", "p2", "p3", "p4", "p5"]
    assert game["winning_side"] and any(p["won"] for p in game["players"])
    assert "role" not in str(game)

    mine = await client.get("/me/games", headers=members[1].auth)
    assert [g["game_id"] for g in mine.json()["items"]] == [game["game_id"]]
    assert (await client.get("/me/games")).status_code == 401

    leagues = await client.get(f"/clubs/{club_id}/leagues", headers=members[2].auth)
    assert leagues.status_code == 200, leagues.text
    [summary] = leagues.json()["items"]
    assert (summary["league_id"], summary["name"], summary["seasons"]) == (LEAGUE, "Saloon League", 1)
    assert summary["club"] == {"club_id": club_id, "name": "Dodge City Dicers"}

    detail = (await client.get(f"/leagues/{LEAGUE}", headers=members[3].auth)).json()
    assert [(s["season_id"], s["name"], s["entrants"], s["closed"]) for s in detail["seasons"]] == [
        (SEASON, "Spring", 5, False)
    ]
    assert [(t["tournament_id"], t["name"], t["rounds"]) for t in detail["tournaments"]] == [
        (TOURNAMENT, "League nights", 1)
    ]

    rounds = (await client.get(ROUNDS, headers=members[0].auth)).json()
    [first] = rounds["items"]
    assert rounds["next_offset"] is None and first["round"] == 1 and first["closed"] is False
    [table] = first["tables"]
    assert names(table["members"]) == by_id
    assert table["sheriff"]["display_name"] == by_id[table["sheriff"]["member_id"]]
    assert table["game"]["game_id"] == game["game_id"] and table["game"]["status"] == "finished"
    assert table["forfeits"] == [] and first["byes"] == []

    # GraphQL answers the same, with the same names
    variables = {"club": club_id, "league": LEAGUE, "tournament": TOURNAMENT}
    answer = await client.post(
        "/graphql", json={"query": LEAGUE_QUERY, "variables": variables}, headers=members[4].auth
    )
    assert answer.status_code == 200 and "errors" not in answer.json(), answer.text
    data = answer.json()["data"]
    assert [item["name"] for item in data["clubLeagues"]["items"]] == ["Saloon League"]
    assert data["league"]["seasons"] == [{"seasonId": SEASON, "entrants": 5}]
    [graphql_table] = data["tournamentRounds"]["items"][0]["tables"]
    assert {m["memberId"]: m["displayName"] for m in graphql_table["members"]} == by_id
    assert graphql_table["game"] == {"gameId": game["game_id"], "status": "finished"}
    assert [g["gameId"] for g in data["myGames"]["items"]] == [game["game_id"]]
    assert data["myGames"]["nextOffset"] is None


async def test_forfeits_and_a_closed_round_show_on_the_rounds_list(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    club_id, members = await club_with_members(app, client)
    await league_round(app, club_id, members)
    league = league_of(app)
    await league.execute(
        RecordForfeit(
            league_id=LEAGUE, tournament_id=TOURNAMENT, round=1, table=1, member_id=members[4].account_id,
            kind="no-show", reason="stuck on the road",
        ),
        command_id="forfeit",
    )  # fmt: skip
    await league.execute(CloseRound(league_id=LEAGUE, tournament_id=TOURNAMENT, round=1), command_id="close")
    await catch_up(app)

    rounds = (await client.get(ROUNDS, headers=members[1].auth)).json()
    [first] = rounds["items"]
    assert first["closed"] is True
    [forfeit] = first["tables"][0]["forfeits"]
    assert forfeit == {
        "member": {"member_id": members[4].account_id, "display_name": NAMES[4]},
        "kind": "no-show",
        "reason": "stuck on the road",
    }


async def test_a_foreign_clubs_member_is_refused_every_club_list_and_learns_nothing(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    club_id, members = await club_with_members(app, client)
    await league_round(app, club_id, members)
    await catch_up(app)
    stranger = await person(app, client, "zed", "Zed Outsider")
    await found(client, stranger, "Tombstone")  # an admin, but of another club

    paths = [
        f"/clubs/{club_id}/members",
        f"/clubs/{club_id}/members?q=ada",
        f"/leagues/{LEAGUE}",  # a members-only league (services/league/visibility.py)
        ROUNDS,
    ]
    # the club's league list shows a stranger its public leagues only: none here
    for headers in (stranger.auth, {}):
        listed = await client.get(f"/clubs/{club_id}/leagues", headers=headers)
        assert listed.status_code == 200 and listed.json()["items"] == [], listed.text
        assert "Saloon League" not in listed.text
    for path in paths:
        refused = await client.get(path, headers=stranger.auth)
        assert refused.status_code == 403, (path, refused.text)
        body = refused.json()
        assert body["type"].endswith("/role-required")
        text = refused.text
        assert not any(name in text for name in NAMES), text
        assert "Saloon League" not in text and "League nights" not in text
        assert not any(m.account_id in text for m in members)
        anonymous = await client.get(path)
        assert anonymous.status_code == 401, (path, anonymous.text)

    unknown = await client.get(f"/leagues/{LEAGUE}/tournaments/nope/rounds", headers=members[0].auth)
    assert unknown.status_code == 404 and unknown.json()["field"] == "tournament_id"
    missing = await client.get("/leagues/nope", headers=members[0].auth)
    assert missing.status_code == 404 and missing.json()["field"] == "league_id"


async def test_members_are_searched_by_name_a_page_at_a_time(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    club_id, members = await club_with_members(app, client)
    reader = members[3]
    everyone = (await client.get(f"/clubs/{club_id}/members", headers=reader.auth)).json()
    assert [m["display_name"] for m in everyone["items"]] == sorted(NAMES)
    assert everyone["next_offset"] is None
    rosa = next(m for m in everyone["items"] if m["display_name"] == "Rosa Quick")
    assert rosa == {"member_id": members[0].account_id, "display_name": "Rosa Quick", "roles": ["admin"]}

    # "a" in any case: Ada Lane, Bo Marsh, Rosa Quick (not Cy Dunn, Di Ford)
    first = (await client.get(f"/clubs/{club_id}/members?q=A&limit=2", headers=reader.auth)).json()
    assert [m["display_name"] for m in first["items"]] == ["Ada Lane", "Bo Marsh"]
    assert first["next_offset"] == 2
    last = (await client.get(f"/clubs/{club_id}/members?q=A&limit=2&offset=2", headers=reader.auth)).json()
    assert [m["display_name"] for m in last["items"]] == ["Rosa Quick"] and last["next_offset"] is None
    exact = (await client.get(f"/clubs/{club_id}/members?q=mArSh", headers=reader.auth)).json()
    bo = (members[2].account_id, "Bo Marsh")
    assert [(m["member_id"], m["display_name"]) for m in exact["items"]] == [bo]
    # a search is text, not a pattern
    assert (await client.get(f"/clubs/{club_id}/members?q=%25", headers=reader.auth)).json()["items"] == []


async def test_a_bad_page_or_filter_is_refused_naming_the_field(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    club_id, members = await club_with_members(app, client)
    cases = [
        ("/games?limit=0", "limit"),
        ("/games?limit=101", "limit"),
        ("/games?offset=-1", "offset"),
        ("/games?state=won", "state"),
        ("/games?from=yesterday", "from"),
        ("/games?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z", "to"),
        ("/games?player=a%20b", "player"),
        (f"/clubs/{club_id}/members?limit=500", "limit"),
        (f"/clubs/{club_id}/members?q=" + "x" * 101, "q"),
        (f"/clubs/{club_id}/leagues?limit=0", "limit"),
        ("/me/games?limit=1000", "limit"),
    ]
    for path, field in cases:
        refused = await client.get(path, headers=members[0].auth)
        assert refused.status_code == 400, (path, refused.text)
        assert refused.json()["field"] == field, (path, refused.json())
        assert field in refused.json()["detail"], refused.json()
