"""Voids, forfeits, closed rounds and the schedule rule in the standings: the projection
(``league-standings``) and the recomputation from scratch (``recompute.py``) must agree whatever
order the events came in, and a replay from position 0 must give the same rows back."""

from __future__ import annotations

import asyncpg
import strawberry

from event_store import ANY, PostgresEventStore
from services.game.application.lifecycle import GameContext, GameMode
from services.game.application.service import Actor, ActorKind, GameService, Member, NewGame
from services.league import read_model
from services.league.bot_league import play_bot_round, play_out, seat_next_round, table_game_id
from services.league.commands import ScheduleGame
from services.league.events import (
    LEAGUE_MAPPER,
    ForfeitRecorded,
    GameScheduled,
    GameVoided,
    LeagueEvent,
    RoundClosed,
    RoundSeated,
)
from services.league.graphql_types import LeagueQuery
from services.league.league import league_stream
from services.league.ranking import Standing
from services.league.recompute import read_history, season_standings, tournament_standings
from services.league.service import LeagueService, derived_command_id
from services.league.standings import StandingsProjection

from .league_setup import CARE, LEAGUE, MEMBERS, SEASON, TOURNAMENT, found_league
from .test_bot_season import snapshot

ORGANISER = Actor(kind=ActorKind.ORGANISER, id=f"league:{LEAGUE}")
SCHEMA = strawberry.Schema(query=LeagueQuery)


async def record(store: PostgresEventStore, *events: LeagueEvent) -> None:
    """League events straight into the league's stream, as the league's commands record them."""
    await store.append(
        league_stream(LEAGUE), [LEAGUE_MAPPER.to_new_event(e) for e in events], expected_version=ANY
    )


def void(game_id: str) -> GameVoided:
    return GameVoided(league_id=LEAGUE, game_id=game_id, reason="dice entered twice", voided_by="referee")


async def create(
    games: GameService,
    seated: RoundSeated,
    table: int,
    game_id: str,
    *,
    context_table: int | None = None,
    members_of: int | None = None,
) -> None:
    """The table's game on the game server, its context naming ``context_table`` and its seats
    holding the members of table ``members_of`` (default: its own)."""
    [seats] = [t for t in seated.tables if t.table == (members_of or table)]
    await games.create_game(
        NewGame(
            mode=GameMode.ONLINE,
            player_count=len(seats.members),
            members=tuple(Member(member_id=m, name=m.upper()) for m in seats.members),
            sheriff_member=seats.sheriff,
            context=GameContext(
                league_id=LEAGUE,
                season_id=seated.season_id,
                tournament_id=TOURNAMENT,
                round=seated.round,
                table=context_table or table,
            ),
            game_id=game_id,
        ),
        command_id=f"create/{game_id}",
        actor=ORGANISER,
    )


async def schedule(league: LeagueService, seated: RoundSeated, table: int, game_id: str) -> None:
    await league.execute(
        ScheduleGame(
            league_id=LEAGUE, tournament_id=TOURNAMENT, round=seated.round, table=table, game_id=game_id
        ),
        command_id=derived_command_id("schedule-game", [game_id]),
        actor=f"league:{LEAGUE}",
    )


async def agree(store: PostgresEventStore, pool: asyncpg.Pool) -> list[Standing]:
    """The projection's season and tournament standings equal the recomputation's; the season's."""
    history = await read_history(store)
    season = await read_model.standings(pool, LEAGUE, SEASON)
    assert season == season_standings(history, LEAGUE, SEASON)
    assert await read_model.standings(pool, LEAGUE, tournament_id=TOURNAMENT) == tournament_standings(
        history, LEAGUE, TOURNAMENT
    )
    return season


async def replay_gives_the_same_rows(store: PostgresEventStore, pool: asyncpg.Pool) -> None:
    before = await snapshot(pool)
    async with pool.acquire() as connection:
        await read_model.reset(connection)
    await StandingsProjection(store, batch_size=5).run_until_idle()
    assert await snapshot(pool) == before


async def test_a_voided_game_stops_counting_whenever_the_void_comes(
    league: LeagueService,
    games: GameService,
    projection: StandingsProjection,
    store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
) -> None:
    await found_league(league)
    report = await play_bot_round(
        league, games, LEAGUE, TOURNAMENT, 1, seed="void", care=CARE, projection=projection
    )
    before = {s.member_id: s for s in await agree(store, pg_pool)}
    first, second = report.seated.tables
    voided_game = report.games[0]
    assert all(before[m].games == 1 for m in first.members)

    # after the game finished: its results go, the other table's stay
    await record(store, void(voided_game))
    await projection.run_until_idle()
    after = {s.member_id: s for s in await agree(store, pg_pool)}
    for member in first.members:
        assert (after[member].games, after[member].points, after[member].wins) == (0, 0, 0)
    for member in second.members:
        assert (after[member].games, after[member].points) == (before[member].games, before[member].points)
    assert await read_model.head_to_head(pg_pool, LEAGUE, first.members[0], season_id=SEASON) == []
    assert [g.game_id for g in await read_model.uncounted_games(pg_pool, LEAGUE)] == [voided_game]
    assert (await read_model.uncounted_games(pg_pool, LEAGUE))[0].reason == "voided"
    [seated] = await read_model.rounds(pg_pool, LEAGUE, TOURNAMENT)
    assert [(t.voided, t.counted) for t in seated.tables] == [(True, False), (False, True)]
    # a second delivery of the same void changes nothing
    await record(store, void(voided_game))
    await projection.run_until_idle()
    assert {s.member_id: s for s in await agree(store, pg_pool)} == after

    # scheduled but not created yet (table 1), and while it is being played (table 2)
    seated_two = await seat_next_round(league, LEAGUE, TOURNAMENT, 2, seed="void")
    ids = [table_game_id(LEAGUE, TOURNAMENT, 2, t.table) for t in seated_two.tables]
    for table, game_id in zip(seated_two.tables, ids, strict=True):
        await schedule(league, seated_two, table.table, game_id)
    await record(store, void(ids[0]))
    for table, game_id in zip(seated_two.tables, ids, strict=True):
        await create(games, seated_two, table.table, game_id)
    await record(store, void(ids[1]))
    for game_id in ids:
        await play_out(games, game_id, CARE, seed="void")
    await projection.run_until_idle()
    games_won = {m: (s.games, s.wins, s.survivals) for m, s in after.items()}
    # round 2 counts no game (only its byes)
    assert {s.member_id: (s.games, s.wins, s.survivals) for s in await agree(store, pg_pool)} == games_won
    assert {g.game_id for g in await read_model.uncounted_games(pg_pool, LEAGUE)} == {voided_game, *ids}
    await replay_gives_the_same_rows(store, pg_pool)


async def test_only_a_game_its_league_scheduled_at_that_table_counts(
    league: LeagueService,
    games: GameService,
    projection: StandingsProjection,
    store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
) -> None:
    await found_league(league)
    seated = await seat_next_round(league, LEAGUE, TOURNAMENT, 1, seed="integrity")
    first, second = seated.tables
    forged, elsewhere = "forged.r1.t1", "elsewhere.r1"
    # a game claiming round 1 table 1 that the league never scheduled
    await create(games, seated, first.table, forged)
    # a game the league scheduled at table 2 whose context claims table 1
    await schedule(league, seated, second.table, elsewhere)
    await create(games, seated, second.table, elsewhere, context_table=first.table)
    for game_id in (forged, elsewhere):
        await play_out(games, game_id, CARE, seed="integrity")
    await projection.run_until_idle()
    lines = await agree(store, pg_pool)
    assert all(s.games == 0 and s.wins == 0 for s in lines)
    assert sorted(s.member_id for s in lines) == list(MEMBERS)  # the enrolled lines stay, at zero
    audit = await read_model.uncounted_games(pg_pool, LEAGUE)
    assert [(g.game_id, g.reason) for g in audit] == [(elsewhere, "not-scheduled"), (forged, "not-scheduled")]

    # the new order: scheduled first, then created (table 1) - it counts
    scheduled_first = table_game_id(LEAGUE, TOURNAMENT, 1, first.table)
    await schedule(league, seated, first.table, scheduled_first)
    await projection.run_until_idle()
    await create(games, seated, first.table, scheduled_first)
    await play_out(games, scheduled_first, CARE, seed="integrity")
    await projection.run_until_idle()
    lines = {s.member_id: s for s in await agree(store, pg_pool)}
    assert all(lines[m].games == 1 for m in first.members)
    assert all(lines[m].games == 0 for m in second.members)

    # scheduled at that table, but played by another table's members
    seated_two = await seat_next_round(league, LEAGUE, TOURNAMENT, 2, seed="integrity")
    swapped = table_game_id(LEAGUE, TOURNAMENT, 2, 1)
    await schedule(league, seated_two, 1, swapped)
    await create(games, seated_two, 1, swapped, members_of=2)
    await play_out(games, swapped, CARE, seed="integrity")
    await projection.run_until_idle()
    assert {s.member_id: s.games for s in await agree(store, pg_pool)} == {
        m: s.games for m, s in lines.items()
    }
    audit = {g.game_id: g.reason for g in await read_model.uncounted_games(pg_pool, LEAGUE)}
    assert audit == {forged: "not-scheduled", elsewhere: "not-scheduled", swapped: "seats-differ"}
    await replay_gives_the_same_rows(store, pg_pool)


async def test_a_game_scheduled_only_after_it_finished_counts_from_then_on(
    league: LeagueService,
    games: GameService,
    projection: StandingsProjection,
    store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
) -> None:
    await found_league(league)
    seated = await seat_next_round(league, LEAGUE, TOURNAMENT, 1, seed="late")
    table = seated.tables[0]
    game_id = table_game_id(LEAGUE, TOURNAMENT, 1, table.table)
    await create(games, seated, table.table, game_id)
    await play_out(games, game_id, CARE, seed="late")
    await projection.run_until_idle()
    assert all(s.games == 0 for s in await agree(store, pg_pool))
    await schedule(league, seated, table.table, game_id)
    await projection.run_until_idle()
    lines = {s.member_id: s for s in await agree(store, pg_pool)}
    assert {m for m, s in lines.items() if s.games == 1} == set(table.members)
    assert await read_model.uncounted_games(pg_pool, LEAGUE) == []


async def test_a_forfeit_is_a_lost_game_without_points_and_a_closed_round_shows(
    league: LeagueService,
    games: GameService,
    projection: StandingsProjection,
    store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
) -> None:
    await found_league(league)
    seated = await seat_next_round(league, LEAGUE, TOURNAMENT, 1, seed="forfeit")
    first, second = seated.tables
    absent = first.members[0]
    # the ruling: the table cannot play its game without them, so the organiser voids it
    forfeit = ForfeitRecorded(
        league_id=LEAGUE,
        tournament_id=TOURNAMENT,
        round=1,
        table=first.table,
        member_id=absent,
        kind="no-show",
    )
    await record(store, forfeit)
    await record(store, forfeit)  # recorded twice by a retrying script: counted once
    await record(
        store,
        GameScheduled(
            league_id=LEAGUE, tournament_id=TOURNAMENT, round=1, table=first.table, game_id="never.played"
        ),
        void("never.played"),
    )
    played = table_game_id(LEAGUE, TOURNAMENT, 1, second.table)
    await create(games, seated, second.table, played)
    await schedule(league, seated, second.table, played)
    await play_out(games, played, CARE, seed="forfeit")
    await record(
        store, RoundClosed(league_id=LEAGUE, tournament_id=TOURNAMENT, round=1, closed_by="organiser")
    )
    await projection.run_until_idle()

    lines = {s.member_id: s for s in await agree(store, pg_pool)}
    line = lines[absent]
    assert (line.games, line.forfeits, line.points, line.wins) == (1, 1, 0, 0)
    assert lines[absent].buchholz == 0  # nobody was played
    assert all((lines[m].games, lines[m].forfeits) == (0, 0) for m in first.members[1:])
    assert all((lines[m].games, lines[m].forfeits) == (1, 0) for m in second.members)
    assert await read_model.head_to_head(pg_pool, LEAGUE, absent) == []
    # level on points with the others who did not play: the one who forfeited ranks below them
    zero = [s for s in lines.values() if s.points == 0 and s.buchholz == 0 and s.head_to_head == 0]
    assert absent in {s.member_id for s in zero} and max(zero, key=lambda s: s.rank).member_id == absent

    [round_one] = await read_model.rounds(pg_pool, LEAGUE, TOURNAMENT)
    assert round_one.closed
    table_view = round_one.tables[0]
    assert [(f.member_id, f.kind) for f in table_view.forfeits] == [(absent, "no-show")]
    assert table_view.voided and not table_view.counted

    result = await SCHEMA.execute(
        """
        query ($league: ID!, $season: ID, $tournament: ID!) {
          leagueStandings(leagueId: $league, seasonId: $season) { lines { memberId games forfeits points } }
          leagueTournament(leagueId: $league, tournamentId: $tournament) {
            rounds { round closed tables { table voided mode forfeits { memberId kind reason } } }
          }
        }
        """,
        {"league": LEAGUE, "season": SEASON, "tournament": TOURNAMENT},
        context_value={"pool": pg_pool},
    )
    assert result.errors is None and result.data is not None
    by_member = {line["memberId"]: line for line in result.data["leagueStandings"]["lines"]}
    assert by_member[absent] == {"memberId": absent, "games": 1, "forfeits": 1, "points": 0}
    [gql_round] = result.data["leagueTournament"]["rounds"]
    assert gql_round["closed"] is True
    assert gql_round["tables"][0]["forfeits"] == [{"memberId": absent, "kind": "no-show", "reason": ""}]
    assert gql_round["tables"][0]["voided"] is True
    assert gql_round["tables"][1]["voided"] is False and gql_round["tables"][1]["forfeits"] == []
    await replay_gives_the_same_rows(store, pg_pool)
