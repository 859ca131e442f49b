"""League and ratings data while a league game is in progress: the Sheriff of each table is
public (the rotation names them), nothing else about the game may move until it ends —
standings, head-to-head records, ratings per role, the tournament's tables — so no role can be
inferred from league data before the end. Read through the API's GraphQL, anonymously, with
the dashboard's own operations."""

from __future__ import annotations

import random
from typing import Any

import httpx
from litestar import Litestar

from event_store import PostgresEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.lifecycle import GameContext, GameMode
from services.game.application.service import Actor, ActorKind, GameService, Member, NewGame
from services.game.bots import HeuristicBot
from services.game.rules.dice import Role
from services.league.bot_league import play_bot_round, seat_next_round, table_game_id
from services.league.commands import ScheduleGame
from services.league.read_model import prepare_database as prepare_league_tables
from services.league.service import LeagueService, derived_command_id
from services.league.standings import StandingsProjection
from services.ratings.consumer import ratings_subscription
from services.ratings.store import prepare_database as prepare_ratings_tables
from tests.integration.league.league_setup import CARE, LEAGUE, MEMBERS, SEASON, TOURNAMENT, found_league

from .conftest import dashboard_operation, resources_of

ROLES = (None, "SHERIFF", "DEPUTY", "OUTLAW", "RENEGADE")


async def _graphql(client: httpx.AsyncClient, document: str, name: str, variables: dict[str, Any]) -> Any:
    response = await client.post(
        "/graphql", json={"query": document, "operationName": name, "variables": variables}
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert "errors" not in body, body
    return body["data"]


async def _league_view(client: httpx.AsyncClient) -> dict[str, Any]:
    """Everything the dashboard shows of the league and the ratings, as an anonymous client."""
    view: dict[str, Any] = {}
    standings = dashboard_operation("Standings")
    for scope in ({}, {"seasonId": SEASON}, {"seasonId": SEASON, "tournamentId": TOURNAMENT}):
        key = f"standings {sorted(scope.items())}"
        view[key] = await _graphql(client, standings, "DashboardStandings", {"leagueId": LEAGUE, **scope})
    leaderboard = dashboard_operation("Leaderboard")
    for role in ROLES:
        view[f"leaderboard {role}"] = await _graphql(
            client, leaderboard, "DashboardLeaderboard", {"role": role, "leagueId": LEAGUE, "limit": 100}
        )
    player = dashboard_operation("Player")
    for member in MEMBERS:
        view[f"rating {member}"] = await _graphql(
            client, player, "DashboardPlayerRating", {"memberId": member}
        )
        view[f"h2h {member}"] = await _graphql(
            client, player, "DashboardHeadToHead", {"leagueId": LEAGUE, "memberId": member}
        )
    return view


COUNTED = ("points", "games", "wins", "renegadeWins", "survivals", "sheriffGames", "byes")


def _lines(data: dict[str, Any], members: set[str]) -> dict[str, dict[str, Any]]:
    lines = data["leagueStandings"]["lines"]
    return {line["memberId"]: {k: line[k] for k in COUNTED} for line in lines if line["memberId"] in members}


async def _start_a_round_without_finishing_it(
    league: LeagueService, games: GameService, round_number: int, moves: int
) -> tuple[str, dict[str, str | None]]:
    """Seat the round and create its first table's game as ``play_bot_round`` does, then let
    the bots make ``moves`` moves. Returns the game id and its tables' Sheriffs."""
    seated = await seat_next_round(league, LEAGUE, TOURNAMENT, round_number, seed="hidden")
    table = seated.tables[0]
    game_id = table_game_id(LEAGUE, TOURNAMENT, round_number, table.table)
    await games.create_game(
        NewGame(
            mode=GameMode.ONLINE,
            player_count=len(table.members),
            members=tuple(Member(member_id=m, name=m.upper()) for m in table.members),
            sheriff_member=table.sheriff,
            context=GameContext(
                league_id=LEAGUE, season_id=SEASON, tournament_id=TOURNAMENT, round=round_number, table=1
            ),
            game_id=game_id,
        ),
        command_id=f"league-game/{game_id}",
        actor=Actor(kind=ActorKind.ORGANISER, id=f"league:{LEAGUE}"),
    )
    await league.execute(
        ScheduleGame(
            league_id=LEAGUE, tournament_id=TOURNAMENT, round=round_number, table=1, game_id=game_id
        ),
        command_id=derived_command_id("schedule-game", [game_id]),
        actor=f"league:{LEAGUE}",
    )
    for n in range(moves):
        session = await games.load(game_id)
        assert session.game is not None and session.status.value == "ongoing"
        question = session.game.awaiting
        assert question is not None
        member = session.seat_members[question.player]
        command = HeuristicBot(0.8).choose(session.game, question, random.Random(n))
        await games.play(
            game_id, command, actor=Actor(kind=ActorKind.PLAYER, id=member), command_id=f"bot/{game_id}/{n}"
        )
    return game_id, {f"t{t.table}": t.sheriff for t in seated.tables}


async def test_league_and_ratings_show_nothing_of_a_game_in_progress(
    app: Litestar, client: httpx.AsyncClient
) -> None:
    resources = resources_of(app)
    pool = resources.pool
    await prepare_league_tables(pool)
    await prepare_ratings_tables(pool)
    store = PostgresEventStore(pool)
    league = LeagueService(store)
    games = resources.gateway.service
    projection = StandingsProjection(store)
    ratings = ratings_subscription(PostgresEventStore(pool, mapper=GAME_MAPPER))
    try:
        await found_league(league)
        await play_bot_round(
            league, games, LEAGUE, TOURNAMENT, 1, seed="r1", care=CARE, projection=projection
        )
        await ratings.run_until_idle()
        before = await _league_view(client)

        game_id, sheriffs = await _start_a_round_without_finishing_it(league, games, 2, moves=20)
        await projection.run_until_idle()
        await ratings.run_until_idle()
        during = await _league_view(client)
        session = await games.load(game_id)
        assert session.status.value == "ongoing", "pick other moves: the league game ended already"
    finally:
        await projection.close()

    # round 2's byes were booked when it was seated (public); everything else must stand still,
    # and the lines of the players at the unfinished table must not move at all
    at_table = set(session.seat_members.values())
    for key in before:
        if key.startswith("standings"):
            assert _lines(during[key], at_table) == _lines(before[key], at_table), (
                f"{key}: a line of a player at {game_id} moved while it is still being played"
            )
        else:
            assert during[key] == before[key], f"{key} moved while {game_id} is still being played"

    tournament = await _graphql(
        client,
        dashboard_operation("Tournament"),
        "DashboardTournament",
        {"leagueId": LEAGUE, "tournamentId": TOURNAMENT},
    )
    (round_two,) = [r for r in tournament["leagueTournament"]["rounds"] if r["round"] == 2]
    (table,) = [t for t in round_two["tables"] if t["gameId"] == game_id]
    assert table["winningSide"] is None
    assert session.game is not None
    sheriff_seat = next(p.id for p in session.game.state.players if p.role is Role.SHERIFF)
    assert table["sheriff"] == session.seat_members[sheriff_seat] == sheriffs["t1"]
    # names are public (the display names of the ids beside them), roles beyond the Sheriff absent
    # (and whether the table's game can be replayed: not only for a result sheet's)
    shown = {
        "table",
        "members",
        "memberNames",
        "sheriff",
        "sheriffName",
        "gameId",
        "winningSide",
        "replayable",
        "shownAs",
    }
    assert set(table) == shown and table["replayable"] is True and table["shownAs"] is None
    assert len(table["memberNames"]) == len(table["members"]) and table["sheriffName"]
