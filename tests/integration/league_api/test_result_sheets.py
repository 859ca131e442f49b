"""Result sheets over the API: a card game played on cardboard, entered by its table's scorekeeper,
counts for the standings and the card-game ratings and moves no dice rating; a foreign organiser,
a player who is not the scorekeeper and an inconsistent sheet are refused with nothing stored; a
cards league refuses a dice game."""

from __future__ import annotations

import random
from typing import Any

import httpx
from litestar import Litestar

from services.directory.projection import directory_subscription
from services.ratings.consumer import rebuild
from tests.integration.api.bots import play_to_the_end
from tests.integration.clubs.test_clubs import pool_of
from tests.integration.league_api.conftest import SEASON, Clubs, clubs, post, writes
from tests.integration.league_api.sheets import law_win
from tests.integration.league_api.test_standings_and_ratings import consume

CARDS = "cardnight"
TOURNAMENT = "saturdays"
ROUND = f"/leagues/{CARDS}/tournaments/{TOURNAMENT}/rounds/1"
QUERY = """
query ($league: ID!, $season: ID, $member: String!, $pool: String!) {
  leagueStandings(leagueId: $league, seasonId: $season) { lines { memberId games points wins } }
  cards: ratingLeaderboard(limit: 100, gameType: CARDS, pool: $pool) { memberId rating games gameType }
  dice: ratingLeaderboard(limit: 100, pool: $pool) { memberId }
  cardRating: playerRating(memberId: $member, gameType: CARDS, pool: $pool) { games gameType }
  diceRating: playerRating(memberId: $member, pool: $pool) { games }
  leagueTournament(leagueId: $league, tournamentId: "saturdays") {
    gameType
    rounds { tables { table gameId replayable shownAs winningSide } }
  }
}
"""


async def cards_round(client: httpx.AsyncClient, c: Clubs) -> dict[str, Any]:
    """A cards league with every player enrolled, round 1 seated (8 players: two tables of 4)."""
    league = await post(
        client,
        f"/clubs/{c.home}/leagues",
        c.organiser,
        {"league_id": CARDS, "name": "Card Night", "game_type": "cards"},
    )
    assert league["game_type"] == "cards"
    await post(client, f"/leagues/{CARDS}/seasons", c.organiser, {"season_id": SEASON, "name": "Spring"})
    members = [p.account_id for p in c.players]
    await post(client, f"/leagues/{CARDS}/seasons/{SEASON}/entrants", c.organiser, {"member_ids": members})
    await post(
        client, f"/leagues/{CARDS}/seasons/{SEASON}/tournaments", c.organiser,
        {"tournament_id": TOURNAMENT, "name": "Saturdays"},
    )  # fmt: skip
    seated = await post(
        client, f"/leagues/{CARDS}/tournaments/{TOURNAMENT}/rounds", c.organiser, {"seed": "s1"}
    )
    assert all(4 <= len(t["members"]) <= 7 for t in seated["tables"])
    return seated


async def test_a_sheet_entered_by_the_scorekeeper_counts_for_standings_and_card_ratings_only(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    table = (await cards_round(client, c))["tables"][0]
    members = [m["member_id"] for m in table["members"]]
    await post(
        client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "table", "scorekeeper": c.keeper.account_id}
    )
    sheet = law_win(members, table["sheriff"]["member_id"])
    url = f"{ROUND}/tables/1/result-sheet"

    outsider = next(p for p in c.players if p.account_id not in members)
    for caller in (c.foreign_organiser, c.by_id(members[0]), outsider):
        before = await writes(app)
        refused = await client.post(url, json=sheet, headers=caller.auth)
        assert refused.status_code == 403, refused.text
        assert refused.json()["type"].endswith("role-required")
        assert await writes(app) == before

    before = await writes(app)
    wrong = sheet | {
        "winning_side": "outlaws",
        "winners": [s["member_id"] for s in sheet["seats"] if s["role"] == "outlaw"],
    }
    refused = await client.post(url, json=wrong, headers=c.keeper.auth)
    assert refused.status_code == 422, refused.text
    assert "law won" in refused.json()["detail"]
    assert await writes(app) == before

    answer = await post(client, url, c.keeper, sheet)
    assert (answer["replayable"], answer["shown_as"], answer["winning_side"]) == (
        False, "result sheet — not replayable", "law",
    )  # fmt: skip
    assert [s["member"]["display_name"] for s in answer["seats"]][:1] == [c.by_id(members[0]).display_name]
    again = await client.post(url, json=sheet, headers=c.keeper.auth)
    assert again.status_code == 409, again.text  # one sheet per game
    audit = await client.get(
        f"/leagues/{CARDS}/games/{answer['game_id']}/audit", headers=c.by_id(members[1]).auth
    )
    assert audit.status_code == 200, audit.text
    assert audit.json()["replayable"] is False
    assert audit.json()["audit"].startswith("result sheet — not replayable: ")
    assert "nothing to audit by replay" in audit.json()["audit"]
    foreign = await client.get(
        f"/leagues/{CARDS}/games/{answer['game_id']}/audit", headers=c.foreign_organiser.auth
    )
    assert foreign.status_code == 403, foreign.text
    # and nobody creates a game under its id any more
    seats = [
        {"member_id": s["member_id"], "name": s["member_id"], "role": s["role"], "character": s["character"]}
        for s in sheet["seats"]
    ]
    game = {
        "command_id": "late", "mode": "table", "player_count": len(seats), "seats": seats,
        "game_id": answer["game_id"], "ruleset": {"game_type": "cards"},
        "context": {
            "league_id": CARDS, "season_id": SEASON, "tournament_id": TOURNAMENT, "round": 1, "table": 1,
        },
    }  # fmt: skip
    late = await client.post("/games", json=game, headers=c.keeper.auth)
    assert late.status_code == 409 and "played on cardboard" in late.json()["detail"], late.text

    store = await consume(app)
    await directory_subscription(store).run_until_idle()
    shown = (await client.get(f"/leagues/{CARDS}", headers=c.by_id(members[0]).auth)).json()
    assert shown["game_type"] == "cards"
    listed = (await client.get(f"/clubs/{c.home}/leagues", headers=c.by_id(members[0]).auth)).json()
    assert [(item["league_id"], item["game_type"]) for item in listed["items"]] == [(CARDS, "cards")]
    path = f"/leagues/{CARDS}/tournaments/{TOURNAMENT}/rounds"
    rounds = (await client.get(path, headers=c.keeper.auth)).json()
    game = rounds["items"][0]["tables"][0]["game"]
    assert (game["status"], game["winning_side"], game["replayable"], game["shown_as"]) == (
        "finished", "law", False, "result sheet — not replayable",
    )  # fmt: skip
    variables = {"league": CARDS, "season": SEASON, "member": members[0], "pool": f"club:{c.home}"}
    body = {"query": QUERY, "variables": variables}
    response = await client.post("/graphql", json=body, headers=c.players[0].auth)  # a member reads
    data = response.json()["data"]
    standings = {line["memberId"]: line for line in data["leagueStandings"]["lines"]}
    winners = set(sheet["winners"])
    for member in members:
        assert standings[member]["games"] == 1
        assert standings[member]["points"] == (3 if member in winners else 0)
    cards = {row["memberId"]: row for row in data["cards"]}
    assert set(cards) == set(members)
    assert all(row["games"] == 1 and row["gameType"] == "CARDS" for row in cards.values())
    assert all((cards[m]["rating"] > 1500) == (m in winners) for m in members)
    assert data["dice"] == [] and data["diceRating"] is None
    assert data["cardRating"] == {"games": 1, "gameType": "CARDS"}
    # a rebuild from the first event reads the sheet again and gives the same card ratings
    await rebuild(pool_of(app))
    body = {"query": QUERY, "variables": variables}
    response = await client.post("/graphql", json=body, headers=c.players[0].auth)  # a member reads
    rebuilt = response.json()["data"]
    assert rebuilt["cards"] == data["cards"] and rebuilt["dice"] == []
    assert data["leagueTournament"]["gameType"] == "cards"
    shown = data["leagueTournament"]["rounds"][0]["tables"][0]
    assert shown == {
        "table": 1, "gameId": answer["game_id"], "replayable": False,
        "shownAs": "result sheet — not replayable", "winningSide": "law",
    }  # fmt: skip


async def test_a_cards_league_refuses_a_dice_game_and_sheets_of_unscheduled_tables(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    seated = await cards_round(client, c)
    before = await writes(app)
    dice = {"mode": "online", "ruleset": {"game_type": "dice"}}
    refused = await client.post(f"{ROUND}/tables/1/game", json=dice, headers=c.organiser.auth)
    assert refused.status_code == 422, refused.text
    assert "plays cards" in refused.json()["detail"]
    assert await writes(app) == before
    # an online game of a card league is a card game, created at once with the seated members
    online = await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "online"})
    assert online["game_created"]
    game = (await client.get(f"/games/{online['game_id']}", headers=c.organiser.auth)).json()
    assert game["ruleset"]["text"] == "cards", game
    before = await writes(app)
    table = seated["tables"][1]
    sheet = law_win([m["member_id"] for m in table["members"]], table["sheriff"]["member_id"])
    refused = await client.post(f"{ROUND}/tables/2/result-sheet", json=sheet, headers=c.organiser.auth)
    assert refused.status_code == 404, refused.text
    assert "schedule it first" in refused.json()["detail"]
    assert await writes(app) == before
    # a table game created on the server has its record: no sheet for it
    scheduled = await post(client, f"{ROUND}/tables/2/game", c.organiser, {"mode": "table"})
    seats = [
        {"member_id": s["member_id"], "name": s["member_id"], "role": s["role"], "character": s["character"]}
        for s in sheet["seats"]
    ]
    created = {
        "command_id": "t2", "mode": "table", "player_count": len(seats), "seats": seats,
        "game_id": scheduled["game_id"], "ruleset": {"game_type": "cards"},
        "context": {
            "league_id": CARDS, "season_id": SEASON, "tournament_id": TOURNAMENT, "round": 1, "table": 2,
        },
    }  # fmt: skip
    await post(client, "/games", c.organiser, created)
    before = await writes(app)
    refused = await client.post(f"{ROUND}/tables/2/result-sheet", json=sheet, headers=c.organiser.auth)
    assert refused.status_code == 409 and "only for a game played on cardboard" in refused.json()["detail"]
    assert await writes(app) == before
    # three players is no card table
    small = {"name": "Small", "game_type": "cards", "seating": {"allowed_sizes": [3, 4], "preferred_size": 4}}
    refused = await client.post(f"/clubs/{c.home}/leagues", json=small, headers=c.organiser.auth)
    assert refused.status_code == 422 and "cards table sizes must lie in 4..8" in refused.json()["detail"]


async def test_an_online_card_game_of_eight_counts_for_standings_and_card_ratings_only(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    c = await clubs(app, client)
    await post(
        client,
        f"/clubs/{c.home}/leagues",
        c.organiser,
        {"league_id": CARDS, "name": "Card Night", "game_type": "cards"},
    )
    await post(client, f"/leagues/{CARDS}/seasons", c.organiser, {"season_id": SEASON, "name": "Spring"})
    members = [p.account_id for p in c.players]
    await post(client, f"/leagues/{CARDS}/seasons/{SEASON}/entrants", c.organiser, {"member_ids": members})
    body = {"tournament_id": TOURNAMENT, "name": "Saturdays"}
    await post(client, f"/leagues/{CARDS}/seasons/{SEASON}/tournaments", c.organiser, body)
    # the organiser's own table of eight: the two-Renegade set
    seating = {"seed": "s1", "tables": [members]}
    await post(client, f"/leagues/{CARDS}/tournaments/{TOURNAMENT}/rounds", c.organiser, seating)
    scheduled = await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "online"})
    game_id = scheduled["game_id"]
    state = (await client.get(f"/games/{game_id}")).json()
    assert state["ruleset"]["text"] == "cards eight_players"
    sessions = {p.account_id: p.token for p in c.players}
    ended = await play_to_the_end(client, game_id, sessions, random.Random(8))
    assert ended["status"] == "ended"
    await consume(app)
    variables = {"league": CARDS, "season": SEASON, "member": members[0], "pool": f"club:{c.home}"}
    body = {"query": QUERY, "variables": variables}
    data = (await client.post("/graphql", json=body, headers=c.players[0].auth)).json()["data"]
    standings = {line["memberId"]: line for line in data["leagueStandings"]["lines"]}
    assert all(standings[m]["games"] == 1 for m in members)
    assert {row["memberId"] for row in data["cards"]} == set(members)
    assert data["dice"] == [] and data["diceRating"] is None
    offsets = await client.post(
        "/graphql",
        json={
            "query": "query ($pool: String!) "
            "{ ratingOffsets(gameType: CARDS, pool: $pool) { ruleset players } }",
            "variables": {"pool": f"club:{c.home}"},
        },
    )
    assert {(o["ruleset"], o["players"]) for o in offsets.json()["data"]["ratingOffsets"]} == {
        ("cards eight_players", 8)
    }


async def test_a_late_sheet_counts_after_its_round_and_season_are_closed_like_a_late_table_game(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    """Closing a round or a season stops schedules, forfeits and seatings, not results: a table
    game scheduled before the close and played after it counts (the game server creates it and
    the standings book its end), and so does a sheet of such a table (docs/league.md)."""
    c = await clubs(app, client)
    table = (await cards_round(client, c))["tables"][0]
    members = [m["member_id"] for m in table["members"]]
    keeper = {"mode": "table", "scorekeeper": c.keeper.account_id}
    await post(client, f"{ROUND}/tables/1/game", c.organiser, keeper)
    await post(client, f"{ROUND}/close", c.organiser, {})
    await post(client, f"/leagues/{CARDS}/seasons/{SEASON}/close", c.organiser, {})
    # closed: no more schedules
    late_schedule = await client.post(f"{ROUND}/tables/2/game", json=keeper, headers=c.organiser.auth)
    assert late_schedule.status_code == 409, late_schedule.text
    # the sheet of the table scheduled before the close is a late result: it counts
    answer = await post(
        client, f"{ROUND}/tables/1/result-sheet", c.keeper, law_win(members, table["sheriff"]["member_id"])
    )
    assert answer["replayable"] is False
    await consume(app)
    variables = {"league": CARDS, "season": SEASON, "member": members[0], "pool": f"club:{c.home}"}
    body = {"query": QUERY, "variables": variables}
    data = (await client.post("/graphql", json=body, headers=c.players[0].auth)).json()["data"]
    games = {line["memberId"]: line["games"] for line in data["leagueStandings"]["lines"]}
    assert all(games[m] == 1 for m in members) and sum(games.values()) == len(members)
    assert data["leagueTournament"]["gameType"] == "cards"


async def test_a_scorekeeper_whose_role_was_revoked_enters_no_sheet(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    """The schedule names the scorekeeper and grants the role for that game; once an admin
    revokes it (here with the player's role too: no role left in the club), the name on the
    schedule lets nobody in, as the game server's moves go by the grant too."""
    c = await clubs(app, client)
    table = (await cards_round(client, c))["tables"][0]
    members = [m["member_id"] for m in table["members"]]
    keeper = {"mode": "table", "scorekeeper": c.keeper.account_id}
    await post(client, f"{ROUND}/tables/1/game", c.organiser, keeper)
    for role in ("scorekeeper", "player"):
        revoked = await client.delete(
            f"/clubs/{c.home}/roles/{c.keeper.account_id}/{role}", headers=c.admin.auth
        )
        assert revoked.status_code == 204, revoked.text
    before = await writes(app)
    sheet = law_win(members, table["sheriff"]["member_id"])
    refused = await client.post(f"{ROUND}/tables/1/result-sheet", json=sheet, headers=c.keeper.auth)
    assert refused.status_code == 403, refused.text
    assert refused.json()["type"].endswith("role-required")
    assert await writes(app) == before


async def test_a_command_id_of_another_command_is_refused_and_marks_no_table(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    """A retry answers as the first call did, but a command id spent on another command (a
    schedule, another table's sheet) is a 409 naming it: no 500, and no table is marked played
    on cardboard without its sheet (its game could never be created then)."""
    c = await clubs(app, client)
    seated = await cards_round(client, c)
    await post(client, f"{ROUND}/tables/1/game", c.organiser, {"mode": "table", "command_id": "schedule-1"})
    second = await post(client, f"{ROUND}/tables/2/game", c.organiser, {"mode": "table"})
    sheets = [
        law_win([m["member_id"] for m in t["members"]], t["sheriff"]["member_id"]) for t in seated["tables"]
    ]
    pool = pool_of(app)

    async def marked() -> list[bool]:
        rows = await pool.fetch("SELECT result_sheet FROM league_game_reservations ORDER BY table_no")
        return [row["result_sheet"] for row in rows]

    before = await writes(app)
    reused = sheets[1] | {"command_id": "schedule-1"}
    refused = await client.post(f"{ROUND}/tables/2/result-sheet", json=reused, headers=c.organiser.auth)
    assert refused.status_code == 409, refused.text
    assert "schedule-1" in refused.json()["detail"]
    assert await writes(app) == before and await marked() == [False, False]

    await post(client, f"{ROUND}/tables/1/result-sheet", c.organiser, sheets[0] | {"command_id": "sheet-1"})
    again = await client.post(
        f"{ROUND}/tables/1/result-sheet", json=sheets[0] | {"command_id": "sheet-1"}, headers=c.organiser.auth
    )
    assert again.status_code == 200, again.text  # the retry
    before = await writes(app)
    reused = sheets[1] | {"command_id": "sheet-1"}
    refused = await client.post(f"{ROUND}/tables/2/result-sheet", json=reused, headers=c.organiser.auth)
    assert refused.status_code == 409, refused.text
    assert "sheet-1" in refused.json()["detail"]
    assert await writes(app) == before and await marked() == [True, False]
    answer = await post(client, f"{ROUND}/tables/2/result-sheet", c.organiser, sheets[1])
    assert answer["game_id"] == second["game_id"] and await marked() == [True, True]
    # the same for the league's other writes (a forfeit here)
    member = seated["tables"][1]["members"][0]["member_id"]
    forfeit = {"table": 2, "member_id": member, "command_id": "sheet-1"}
    refused = await client.post(f"{ROUND}/forfeits", json=forfeit, headers=c.organiser.auth)
    assert refused.status_code == 409 and "sheet-1" in refused.json()["detail"], refused.text


async def test_a_schedule_retried_after_the_sheet_answers_as_before(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    """The reservation marked played on cardboard is still the one the schedule made: a retry of
    the schedule (its command id) answers as the first call did, not 409."""
    c = await clubs(app, client)
    table = (await cards_round(client, c))["tables"][0]
    schedule = {"mode": "table", "scorekeeper": c.keeper.account_id, "command_id": "schedule-1"}
    first = await post(client, f"{ROUND}/tables/1/game", c.organiser, schedule)
    sheet = law_win([m["member_id"] for m in table["members"]], table["sheriff"]["member_id"])
    await post(client, f"{ROUND}/tables/1/result-sheet", c.keeper, sheet)
    before = await writes(app)
    again = await client.post(f"{ROUND}/tables/1/game", json=schedule, headers=c.organiser.auth)
    assert again.status_code == 200, again.text
    assert again.json()["game_id"] == first["game_id"]
    assert await writes(app) == before
