"""A league's GameVoided takes the game out of the ratings: never rated if it was not yet, and
rated games recomputed without it (a rebuild generation) if it was; the tables then hold
exactly the book of the same games minus the voided ones. Safe to deliver twice, to run in
two processes, and to resume after a process died between the void and its rebuild."""

from __future__ import annotations

import asyncio

import asyncpg

from event_store import ANY, PostgresEventStore, Subscription
from services.game.application.service import GameService
from services.league.events import LEAGUE_MAPPER, GameVoided
from services.ratings import RatingBook, RatingConfig, rebuild
from services.ratings import store as ratings_store
from services.ratings.consumer import (
    CATEGORIES,
    SUBSCRIPTION_NAME,
    RatingsProjection,
    follow_rebuild_requests,
    ratings_subscription,
    run_requested_rebuilds,
)
from tests.integration.ratings.checks import assert_tables_hold, current
from tests.integration.ratings.games import POOL, SCOREKEEPER, PlannedGame, enter_games, recorded_outcomes

LEAGUE = "league-a"  # the league of every planned game


async def void(store: PostgresEventStore, game_id: str, league_id: str = LEAGUE) -> None:
    event = GameVoided(
        league_id=league_id, game_id=game_id, reason="scores entered twice", voided_by="referee"
    )
    await store.append(f"league-{league_id}", [LEAGUE_MAPPER.to_new_event(event)], expected_version=ANY)


async def expected_without(store: PostgresEventStore, *voided: str) -> RatingBook:
    outcomes = await recorded_outcomes(store)
    assert {o.game_id for o in outcomes} >= set(voided)
    return rebuild([o for o in outcomes if o.game_id not in voided], RatingConfig())


async def generations(pool: asyncpg.Pool) -> list[tuple[int, str, str | None]]:
    rows = await pool.fetch(
        "SELECT generation, status, rebuild_id FROM ratings_generations ORDER BY generation"
    )
    return [(r["generation"], r["status"], r["rebuild_id"]) for r in rows]


async def test_a_rated_game_voided_is_recomputed_out_of_the_ratings(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    games = planned_games[:8]
    await enter_games(game_service, games)
    await ratings_subscription(game_store).run_until_idle()
    before = await current(pg_pool)
    assert before.games == 8
    voided = games[2]
    member = voided.seats[0].member_id
    profile = await ratings_store.profile(pg_pool, member, pool=POOL)
    assert profile is not None and voided.game_id in {h.game_id for h in profile.history}

    await void(game_store, voided.game_id)
    await ratings_subscription(game_store).run_until_idle()
    after = await current(pg_pool)
    assert after.generation != before.generation and after.games == 7
    expected = await expected_without(game_store, voided.game_id)
    await assert_tables_hold(pg_pool, expected)
    profile = await ratings_store.profile(pg_pool, member, pool=POOL)
    assert profile is not None and voided.game_id not in {h.game_id for h in profile.history}
    assert profile.games == expected.rating(member).games
    board = {row.member_id: row for row in await ratings_store.leaderboard(pg_pool, pool=POOL, limit=100)}
    assert board[member].games == profile.games
    assert sum(row.games for row in board.values()) == sum(len(g.seats) for g in games if g is not voided)
    assert await ratings_store.pending_rebuilds(pg_pool) == []
    made = await generations(pg_pool)

    # delivered again (the checkpoint went back): nothing changes, no new rebuild
    await pg_pool.execute("UPDATE checkpoints SET position = 0 WHERE name = $1", SUBSCRIPTION_NAME)
    await ratings_subscription(game_store).run_until_idle()
    assert await run_requested_rebuilds(pg_pool) == []
    assert await generations(pg_pool) == made
    await assert_tables_hold(pg_pool, expected)

    # the runtime's reset and replay from 0: the replay starts knowing the void, rates the same
    async with pg_pool.acquire() as connection, connection.transaction():
        await ratings_store.reset(connection)
        await connection.execute("DELETE FROM checkpoints WHERE name = $1", SUBSCRIPTION_NAME)
    await ratings_subscription(game_store).run_until_idle()
    await assert_tables_hold(pg_pool, expected)
    assert [status for _, status, _ in await generations(pg_pool)] == ["current"]


async def test_a_game_voided_before_it_ends_is_never_rated_and_only_its_league_can_void_it(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    rated, running, unborn, foreign = planned_games[:4], planned_games[4], planned_games[5], planned_games[6]
    await enter_games(game_service, rated)
    await ratings_subscription(game_store).run_until_idle()
    generation = (await current(pg_pool)).generation

    await enter_games(game_service, [running], stop_after=5)
    await void(game_store, running.game_id)  # while it is being played
    await void(game_store, unborn.game_id)  # before it even exists
    await void(game_store, foreign.game_id, league_id="league-b")  # not that league's game
    await ratings_subscription(game_store).run_until_idle()
    for n, command in enumerate(running.commands[5:], start=5):
        await game_service.play(
            running.game_id, command, actor=SCOREKEEPER, command_id=f"{running.game_id}/{n}"
        )
    await enter_games(game_service, [unborn, foreign])
    await ratings_subscription(game_store).run_until_idle()

    after = await current(pg_pool)
    assert after.generation == generation  # nothing rated had to be undone
    await assert_tables_hold(pg_pool, await expected_without(game_store, running.game_id, unborn.game_id))
    unrated = await pg_pool.fetch(
        "SELECT game_id, unrated FROM ratings_games"
        " WHERE generation = $1 AND unrated IS NOT NULL ORDER BY game_id",
        generation,
    )
    assert [(r["game_id"], r["unrated"]) for r in unrated] == sorted(
        [(running.game_id, "voided by its league"), (unborn.game_id, "voided by its league")]
    )
    assert await ratings_store.pending_rebuilds(pg_pool) == []


async def test_a_rebuild_asked_for_by_a_void_survives_a_crash_and_runs_once_in_two_processes(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    games = planned_games[:6]
    await enter_games(game_service, games)
    await ratings_subscription(game_store).run_until_idle()
    old = await current(pg_pool)
    await void(game_store, games[0].game_id)
    await void(game_store, games[3].game_id)
    # a consumer that dies right after its commit: the requests are stored, nothing rebuilt yet
    died = Subscription(game_store, SUBSCRIPTION_NAME, RatingsProjection(), categories=CATEGORIES)
    await died.run_until_idle()
    requests = await ratings_store.pending_rebuilds(pg_pool)
    assert len(requests) == 2 and (await current(pg_pool)).generation == old.generation

    # two processes pick them up at once: they take turns, each request is one generation
    reports = await asyncio.gather(run_requested_rebuilds(pg_pool), run_requested_rebuilds(pg_pool))
    assert sorted(r.rebuild_id for batch in reports for r in batch if not r.already_done) == sorted(requests)
    rebuilt = [g for g in await generations(pg_pool) if g[2] is not None]
    assert sorted(rebuild_id for _, _, rebuild_id in rebuilt) == sorted(requests)
    await assert_tables_hold(pg_pool, await expected_without(game_store, games[0].game_id, games[3].game_id))
    assert await ratings_store.pending_rebuilds(pg_pool) == []

    # a request left behind is run by the projection's companion
    await void(game_store, games[5].game_id)
    await died.run_until_idle()
    assert len(await ratings_store.pending_rebuilds(pg_pool)) == 1
    stop = asyncio.Event()
    companion = asyncio.create_task(follow_rebuild_requests(pg_pool, stop))
    try:
        async with asyncio.timeout(60):  # generous: a shared machine; it takes about a second
            while await ratings_store.pending_rebuilds(pg_pool):
                await asyncio.sleep(0.1)
    finally:
        stop.set()
        await companion
    await assert_tables_hold(
        pg_pool,
        await expected_without(game_store, games[0].game_id, games[3].game_id, games[5].game_id),
    )
