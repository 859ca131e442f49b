"""A short bot season end to end: seated, played on the game server, consumed by the
standings projection, and the read model checked against a recomputation from scratch."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from event_store import PostgresEventStore
from services.game.application.service import GameService
from services.league import read_model
from services.league.bot_league import play_bot_round
from services.league.recompute import read_history, season_standings
from services.league.seating import has_sheriff
from services.league.service import LeagueService
from services.league.standings import PROJECTION_NAME, StandingsProjection

from .league_setup import CARE, LEAGUE, MEMBERS, SEASON, TOURNAMENT, found_league

ROUNDS = 3


async def play_season(league: LeagueService, games: GameService, projection: StandingsProjection) -> None:
    await found_league(league)
    for number in range(1, ROUNDS + 1):
        await play_bot_round(
            league, games, LEAGUE, TOURNAMENT, number, seed="season-test", care=CARE, projection=projection
        )


async def snapshot(pool: asyncpg.Pool) -> dict[str, list[tuple[object, ...]]]:
    """Every row of the read model, in a stable order."""
    return {
        table: sorted(tuple(row.values()) for row in await pool.fetch(f"SELECT * FROM {table}"))
        for table in read_model.READ_MODEL_TABLES
    }


@pytest.fixture
async def played(
    league: LeagueService, games: GameService, projection: StandingsProjection, pg_pool: asyncpg.Pool
) -> dict[str, list[tuple[object, ...]]]:
    await play_season(league, games, projection)
    return await snapshot(pg_pool)


async def test_standings_match_a_recomputation_from_the_events(
    played: dict[str, list[tuple[object, ...]]], store: PostgresEventStore, pg_pool: asyncpg.Pool
) -> None:
    standings = await read_model.standings(pg_pool, LEAGUE, SEASON)
    history = await read_history(store)
    assert standings == season_standings(history, LEAGUE, SEASON)

    rounds = await read_model.rounds(pg_pool, LEAGUE, TOURNAMENT)
    assert [r.round for r in rounds] == [1, 2, 3]
    for seated in rounds:
        assert len(seated.tables) == 2 and len(seated.byes) == 2  # 12 players at tables of five
        assert sorted([*seated.byes, *(m for t in seated.tables for m in t.members)]) == list(MEMBERS)
        assert all(t.game_id and t.winning_side for t in seated.tables)
        assert all(t.sheriff in t.members for t in seated.tables if has_sheriff(len(t.members)))
    byes = [m for r in rounds for m in r.byes]
    assert len(set(byes)) == len(byes)  # six byes in three rounds: six different players
    lines = {s.member_id: s for s in standings}
    assert sum(s.games for s in standings) == ROUNDS * 2 * 5
    assert all(lines[m].byes == 1 for m in byes)
    # the Sheriff the league asked for is the Sheriff the game server dealt
    for seated in rounds:
        for table in seated.tables:
            assert (
                await pg_pool.fetchval(
                    "SELECT role FROM league_game_results WHERE game_id = $1 AND member_id = $2",
                    table.game_id,
                    table.sheriff,
                )
                == "sheriff"
            )
    # head-to-head is symmetric
    for record in await read_model.head_to_head(pg_pool, LEAGUE, "m00", season_id=SEASON):
        [mirror] = await read_model.head_to_head(pg_pool, LEAGUE, record.opponent_id, "m00", season_id=SEASON)
        assert (mirror.games, mirror.wins, mirror.opponent_wins) == (
            record.games,
            record.opponent_wins,
            record.wins,
        )


async def test_dropping_the_read_model_and_replaying_gives_it_back_even_if_killed_mid_stream(
    played: dict[str, list[tuple[object, ...]]], store: PostgresEventStore, pg_pool: asyncpg.Pool
) -> None:
    async with pg_pool.acquire() as connection:
        await read_model.reset(connection)
    assert await pg_pool.fetchval("SELECT count(*) FROM league_standings") == 0
    assert await pg_pool.fetchval("SELECT count(*) FROM checkpoints WHERE name = $1", PROJECTION_NAME) == 0
    replay = StandingsProjection(store)
    assert await replay.run_until_idle() > 0
    assert await snapshot(pg_pool) == played

    # and again, but the projection is killed mid-stream and restarted
    async with pg_pool.acquire() as connection:
        await read_model.reset(connection)
    head = await store.head_position()
    doomed = StandingsProjection(store, batch_size=7)
    stop = asyncio.Event()
    running = asyncio.create_task(doomed.run(stop))
    while await doomed.position() < head // 3:  # some batches in, far from the end
        await asyncio.sleep(0.005)
    running.cancel()  # no clean stop: a batch may be cut off half-way
    with pytest.raises(asyncio.CancelledError):
        await running
    stopped_at = await doomed.position()
    assert 0 < stopped_at < head
    restarted = StandingsProjection(store, batch_size=50)
    await restarted.run_until_idle()
    assert await restarted.position() == head
    assert await snapshot(pg_pool) == played
