"""The ratings consumer on a real PostgreSQL: every finished game rated once, in the order the
games ended, exactly as a book computed from scratch; crashes and restarts change nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import asyncpg
import pytest

from event_store import PostgresEventStore, RecordedEvent, Subscription, checkpoint_of
from services.game.application.service import GameService
from services.ratings import RatingConfig, rebuild
from services.ratings.consumer import CATEGORIES, SUBSCRIPTION_NAME, RatingsProjection, ratings_subscription
from tests.integration.ratings.checks import assert_tables_hold, current
from tests.integration.ratings.games import SCOREKEEPER, PlannedGame, enter_games, recorded_outcomes


class Crash(RuntimeError):
    """The consumer process dies here."""


def _dies_after(events: int) -> Callable[[RecordedEvent, asyncpg.Connection], Awaitable[None]]:
    """The ratings handler in a process that dies right after handling ``events`` events."""
    projection = RatingsProjection()
    handled = 0

    async def handler(event: RecordedEvent, connection: asyncpg.Connection) -> None:
        nonlocal handled
        await projection(event, connection)
        handled += 1
        if handled == events:
            raise Crash(f"killed after {handled} events")

    return handler


async def _last_game_position(pool: asyncpg.Pool) -> int:
    return await pool.fetchval("SELECT coalesce(max(position), 0) FROM events WHERE category = 'game'")


async def _unfinished_games(service: GameService, games: list[PlannedGame]) -> None:
    """One game abandoned half way (never rated) and one still running."""
    abandoned, running = games
    await enter_games(service, [abandoned, running], stop_after=20)
    await service.abandon(abandoned.game_id, "the bar closed", actor=SCOREKEEPER, command_id="abandon")


async def test_the_consumer_rates_each_finished_game_as_a_book_from_scratch_does(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    first, later = planned_games[:6], planned_games[6:10]
    await enter_games(game_service, first)
    await _unfinished_games(game_service, planned_games[10:12])
    # the consumer follows the store while the later games are entered
    subscription = ratings_subscription(game_store, batch_size=40, poll_interval=0.02)
    stop = asyncio.Event()
    following = asyncio.create_task(subscription.run(stop))
    await enter_games(game_service, later)
    async with asyncio.timeout(20):
        while await subscription.position() < await _last_game_position(pg_pool):
            await asyncio.sleep(0.02)
    stop.set()
    await following

    outcomes = await recorded_outcomes(game_store)
    assert len(outcomes) == 10
    # interleaved entry: the games end in another order than they were created in
    assert [o.game_id for o in outcomes] != [g.game_id for g in first + later]
    await assert_tables_hold(pg_pool, rebuild(outcomes, RatingConfig()))
    rated = await pg_pool.fetch(
        "SELECT game_id, game_number FROM ratings_games WHERE game_number IS NOT NULL ORDER BY game_number"
    )
    assert [r["game_id"] for r in rated] == [o.game_id for o in outcomes]
    assert [r["game_number"] for r in rated] == list(range(1, 11))
    known = {r["game_id"] for r in await pg_pool.fetch("SELECT game_id FROM ratings_games")}
    assert planned_games[10].game_id not in known  # abandoned: forgotten, never rated
    assert planned_games[11].game_id in known  # still running: its seats are remembered
    # each game's rules as GameCreated recorded them (only the base game can be created so far)
    rules = await pg_pool.fetch("SELECT DISTINCT game_type, ruleset FROM ratings_games")
    assert [tuple(r) for r in rules] == [("dice", "dice")]


async def test_crashes_mid_stream_then_a_restart_change_nothing(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    await enter_games(game_service, planned_games[:8])
    last = await _last_game_position(pg_pool)
    positions = []
    # the process dies again and again, each time at another point of a batch (the first
    # event of one, a later one), and restarts from its checkpoint
    for crash_after in (1, 75, 300, 640):
        doomed = Subscription(
            game_store, SUBSCRIPTION_NAME, _dies_after(crash_after), categories=CATEGORIES, batch_size=64
        )
        with pytest.raises(Crash):
            await doomed.run_until_idle()
        positions.append(await checkpoint_of(pg_pool, SUBSCRIPTION_NAME))
    # batches before each crash committed; the one it hit rolled back with its rows
    assert positions == sorted(positions) and 0 < positions[-1] < last

    await ratings_subscription(game_store).run_until_idle()
    await assert_tables_hold(pg_pool, rebuild(await recorded_outcomes(game_store), RatingConfig()))


async def test_a_cancelled_consumer_then_a_restart_changes_nothing(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    await enter_games(game_service, planned_games[:6])
    reached = asyncio.Event()
    handled = 0

    async def slow(event: RecordedEvent, connection: asyncpg.Connection) -> None:
        nonlocal handled
        await RatingsProjection()(event, connection)
        handled += 1
        if handled == 200:
            reached.set()
            await asyncio.sleep(60)  # the process is stopped here, mid-transaction

    subscription = Subscription(game_store, SUBSCRIPTION_NAME, slow, categories=CATEGORIES, batch_size=64)
    task = asyncio.create_task(subscription.run(asyncio.Event()))
    await asyncio.wait_for(reached.wait(), 20)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    await ratings_subscription(game_store).run_until_idle()
    await assert_tables_hold(pg_pool, rebuild(await recorded_outcomes(game_store), RatingConfig()))


async def test_a_checkpoint_moved_back_does_not_rate_a_game_twice(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    await enter_games(game_service, planned_games[:4])
    await ratings_subscription(game_store).run_until_idle()
    before = await current(pg_pool)
    # the checkpoint alone goes back (a restored backup of the checkpoints table, say)
    await pg_pool.execute("UPDATE checkpoints SET position = 0 WHERE name = $1", SUBSCRIPTION_NAME)
    assert await ratings_subscription(game_store).run_until_idle() > 0
    assert await current(pg_pool) == before
    await assert_tables_hold(pg_pool, rebuild(await recorded_outcomes(game_store), RatingConfig()))
