"""Undead or Alive games with an outbreak through the real consumers (docs/rulings.md, UA4): two
league tables whose ends are hand-built as the dice engine records them (a zombie win with a
Zombie Master, a survivor win whose Renegade was a plain zombie) are scheduled, recorded and read
by the standings projection and the ratings consumer, which must agree with a recomputation
from the events."""

from __future__ import annotations

from typing import Any

import asyncpg
import msgspec
import pytest
import strawberry

from event_store import NewEvent, PostgresEventStore
from services.game.application.codec import GAME_MAPPER, game_stream
from services.game.application.lifecycle import GameContext, GameCreated, GameMode, SeatsDealt
from services.game.rules.dice import GameEnded
from services.game.rules.ruleset import ruleset_of
from services.league import read_model
from services.league.bot_league import seat_next_round, table_game_id
from services.league.commands import ScheduleGame
from services.league.events import RoundSeated
from services.league.recompute import read_history, season_standings, tournament_standings
from services.league.service import LeagueService, derived_command_id
from services.league.standings import StandingsProjection
from services.ratings import RatingConfig, rebuild
from services.ratings.consumer import ratings_subscription
from services.ratings.graphql_types import RatingsQuery
from services.ratings.store import prepare_database as prepare_ratings_tables
from tests.integration.ratings.checks import assert_tables_hold
from tests.integration.ratings.games import recorded_outcomes
from tests.unit.game.outbreak_ends import survivor_win, zombie_win

from .league_setup import LEAGUE, MEMBERS, SEASON, TOURNAMENT, found_league

UA4 = ruleset_of(["UA4"])
KEEPER = "keeper"
"""The tables' scorekeeper (an account id), named by the league's schedule."""
TEN = MEMBERS[:10]
"""Two tables of five, no bye."""


async def _enter(
    game_store: PostgresEventStore, seated: RoundSeated, table: int, ended: GameEnded
) -> list[str]:
    """The table's game as the game server records it: created under UA4 in the league's context,
    its seats (the Sheriff first, as the hand-built ends deal him p1), then the engine's end.
    Returns the members in seat order."""
    [seating] = [t for t in seated.tables if t.table == table]
    assert seating.sheriff is not None
    members = [seating.sheriff, *(m for m in seating.members if m != seating.sheriff)]
    game_id = table_game_id(LEAGUE, TOURNAMENT, seated.round, table)
    created = GameCreated(
        game_id=game_id,
        mode=GameMode.TABLE,
        player_count=len(members),
        ruleset=UA4,
        fairness=None,
        sheriff_member=seating.sheriff,
        created_by=KEEPER,  # the scorekeeper the schedule names: the game moves the club's pool
        context=GameContext(
            league_id=LEAGUE, season_id=SEASON, tournament_id=TOURNAMENT, round=seated.round, table=table
        ),
    )
    data: dict[str, Any] = msgspec.to_builtins(ended)
    end = NewEvent(type=GameEnded.__name__, data=data, schema_version=GameEnded.VERSION)
    await game_store.append(
        game_stream(game_id), [created, SeatsDealt(members=tuple(members)), end], expected_version=0
    )
    return members


async def test_outbreak_games_count_in_the_standings_and_the_ratings(
    league: LeagueService, store: PostgresEventStore, pg_pool: asyncpg.Pool
) -> None:
    await prepare_ratings_tables(pg_pool)
    game_store = PostgresEventStore(pg_pool, mapper=GAME_MAPPER)
    await found_league(league, TEN)  # bonuses on: win 3, survivor +1, Renegade +1
    seated = await seat_next_round(league, LEAGUE, TOURNAMENT, 1, seed="outbreak")
    assert [len(t.members) for t in seated.tables] == [5, 5] and not seated.byes
    for table in (1, 2):
        await league.execute(
            ScheduleGame(
                league_id=LEAGUE,
                tournament_id=TOURNAMENT,
                round=1,
                table=table,
                game_id=table_game_id(LEAGUE, TOURNAMENT, 1, table),
                mode="table",
                scorekeeper=KEEPER,
            ),
            command_id=derived_command_id("schedule-game", [str(table)]),
            actor=f"league:{LEAGUE}",
        )
    zombies = await _enter(game_store, seated, 1, zombie_win())
    survivors = await _enter(game_store, seated, 2, survivor_win())

    projection = StandingsProjection(store)
    await projection.run_until_idle()
    await projection.close()
    await ratings_subscription(game_store).run_until_idle()

    # --- standings: the points of each seat, and the Renegade wins of the Master only
    lines = {s.member_id: s for s in await read_model.standings(pg_pool, LEAGUE, SEASON)}
    expected = {
        # seat: (points, wins, Renegade wins, survivals)
        zombies[0]: (0, 0, 0, 0),  # Sheriff, survivor, lost
        zombies[1]: (5, 1, 1, 1),  # Renegade, the Zombie Master: win + in play + Renegade bonus
        zombies[2]: (4, 1, 0, 1),  # Outlaw, a zombie still in play
        zombies[3]: (0, 0, 0, 0),
        zombies[4]: (3, 1, 0, 0),  # Deputy, a zombie out for good: shares the win
        survivors[0]: (4, 1, 0, 1),  # Sheriff, survivor in play
        survivors[1]: (0, 0, 0, 0),  # Renegade dealt, a plain zombie: lost
        survivors[2]: (0, 0, 0, 0),
        survivors[3]: (3, 1, 0, 0),  # an Outlaw among the survivors, out: shares the win
        survivors[4]: (4, 1, 0, 1),
    }
    assert {m: (s.points, s.wins, s.renegade_wins, s.survivals) for m, s in lines.items()} == expected
    sides = await pg_pool.fetch("SELECT member_id, side FROM league_game_results ORDER BY member_id")
    assert {r["member_id"]: r["side"] for r in sides}[zombies[1]] == "zombie_master"
    games = await pg_pool.fetch("SELECT winning_side FROM league_games ORDER BY table_no")
    assert [g["winning_side"] for g in games] == ["zombies", "survivors"]
    # the projection and a recomputation from the events agree, per season and per tournament
    history = await read_history(store)
    assert await read_model.standings(pg_pool, LEAGUE, SEASON) == season_standings(history, LEAGUE, SEASON)
    assert await read_model.standings(pg_pool, LEAGUE, tournament_id=TOURNAMENT) == tournament_standings(
        history, LEAGUE, TOURNAMENT
    )

    # --- ratings: both games rated, as survivors against zombies, roles untouched
    rated = await pg_pool.fetch("SELECT game_id, game_number, unrated, ruleset FROM ratings_games")
    assert all(r["unrated"] is None and r["game_number"] is not None for r in rated) and len(rated) == 2
    assert {r["ruleset"] for r in rated} == {"dice UA4"}
    offsets = await pg_pool.fetch("SELECT ruleset, players, faction, games FROM ratings_offsets")
    assert sorted(tuple(r) for r in offsets) == [
        ("dice UA4", 5, "survivors", 2),
        ("dice UA4", 5, "zombies", 2),
    ]
    assert await pg_pool.fetchval("SELECT coalesce(sum(games), 0) FROM ratings_roles") == 0
    assert await pg_pool.fetchval("SELECT count(*) FROM ratings_history WHERE role <> 'overall'") == 0
    players = {
        r["member_id"]: (r["games"], r["wins"]) for r in await pg_pool.fetch("SELECT * FROM ratings_players")
    }
    assert players == {m: (1, int(expected[m][1])) for m in TEN}
    board = {r["member_id"]: r["rating"] for r in await pg_pool.fetch("SELECT * FROM ratings_players")}
    assert board[zombies[1]] > 1500 > board[zombies[0]]  # the Master won with the zombies
    assert board[survivors[3]] > 1500 > board[survivors[1]]
    # the tables hold exactly a book computed from scratch from the recorded events
    book = rebuild(await recorded_outcomes(game_store), RatingConfig())
    await assert_tables_hold(pg_pool, book, in_pool="club:club")  # the league's club's pool
    # and the API shows the outbreak's offsets, centred on their own mean
    query = '{ ratingOffsets(ruleset: "dice UA4", pool: "club:club") { players faction offset games } }'
    answer = await strawberry.Schema(query=RatingsQuery).execute(query, context_value={"pool": pg_pool})
    assert answer.errors is None, answer.errors
    shown = {o["faction"]: o for o in answer.data["ratingOffsets"]} if answer.data else {}
    assert set(shown) == {"survivors", "zombies"} and {o["games"] for o in shown.values()} == {2}
    assert shown["survivors"]["offset"] == pytest.approx(-shown["zombies"]["offset"])
