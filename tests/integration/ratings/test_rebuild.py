"""The rebuild: recompute into a fresh generation while the old one answers, swap, resume;
on a real Celery worker (the project's app, a subprocess on the test Redis)."""

from __future__ import annotations

import asyncio
import subprocess
import uuid
from typing import Any

import asyncpg
import pytest
import strawberry
from celery import Celery

from event_store import PostgresEventStore, RecordedEvent, Subscription, checkpoint_of
from services.game.application.service import GameService
from services.ratings import RatingConfig, rebuild
from services.ratings import store as ratings_store
from services.ratings.consumer import (
    CATEGORIES,
    SUBSCRIPTION_NAME,
    RatingsProjection,
    ratings_subscription,
    rebuild_checkpoint,
)
from services.ratings.consumer import rebuild as rebuild_ratings
from services.ratings.graphql_types import RatingsQuery
from services.ratings.tasks import REBUILD_TASK
from tests.integration.ratings.checks import assert_tables_hold, current, table_rows
from tests.integration.ratings.games import PlannedGame, enter_games, recorded_outcomes

TIMEOUT = 40
SCHEMA = strawberry.Schema(query=RatingsQuery)
BOARD = (
    '{ ratingsStatus { generation games } ratingLeaderboard(pool: "club:club-a", limit: 100) '
    "{ memberId rating games } }"
)


async def _board(pool: asyncpg.Pool) -> dict[str, Any]:
    result = await SCHEMA.execute(BOARD, context_value={"pool": pool})
    assert result.errors is None and result.data is not None
    return result.data


async def _rated(game_service: GameService, store: PostgresEventStore, games: list[PlannedGame]) -> None:
    await enter_games(game_service, games)
    await ratings_subscription(store).run_until_idle()


async def test_the_rebuild_task_swaps_in_identical_ratings_while_the_old_ones_answer(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
    celery_worker: subprocess.Popen[bytes],
    celery_client: Celery,
    celery_queue: str,
) -> None:
    await _rated(game_service, game_store, planned_games[:8])
    old = await current(pg_pool)
    old_rows = await table_rows(pg_pool, old.generation)
    old_board = await _board(pg_pool)
    assert old_board["ratingsStatus"] == {"generation": old.generation, "games": 8}

    # hold the live consumer's checkpoint, as a live batch in flight would: the rebuild fills
    # its generation, then waits at the swap; meanwhile the old generation answers
    async with pg_pool.acquire() as holder:
        hold = holder.transaction()
        await hold.start()
        await holder.execute("SELECT position FROM checkpoints WHERE name = $1 FOR UPDATE", SUBSCRIPTION_NAME)
        task_id = f"rebuild-{uuid.uuid4().hex[:8]}"
        pending = celery_client.send_task(REBUILD_TASK, queue=celery_queue, task_id=task_id)
        async with asyncio.timeout(TIMEOUT):
            while (
                await pg_pool.fetchval("SELECT games FROM ratings_generations WHERE status = 'building'") != 8
            ):
                await asyncio.sleep(0.05)
        assert await _board(pg_pool) == old_board
        assert not pending.ready()
        await hold.rollback()
    report = await asyncio.to_thread(pending.get, timeout=TIMEOUT)

    new = await current(pg_pool)
    assert report == {
        "rebuild_id": task_id,
        "generation": new.generation,
        "games": 8,
        "position": await checkpoint_of(pg_pool, SUBSCRIPTION_NAME),
        "replaced": old.generation,
        "already_done": False,
    }
    assert new.generation != old.generation
    assert await table_rows(pg_pool, new.generation) == old_rows
    assert await _board(pg_pool) == {**old_board, "ratingsStatus": {"generation": new.generation, "games": 8}}
    # the old generation's rows are gone once nothing reads them
    assert (
        await pg_pool.fetchval("SELECT count(*) FROM ratings_players WHERE generation = $1", old.generation)
        == 0
    )

    # a second delivery of the same task finds the work done (its first result forgotten, so
    # that the answer awaited is the second run's)
    pending.forget()
    again = celery_client.send_task(REBUILD_TASK, queue=celery_queue, task_id=task_id)
    assert (await asyncio.to_thread(again.get, timeout=TIMEOUT))["already_done"] is True
    assert await current(pg_pool) == new
    # another rebuild redoes it, into the same rows
    other = celery_client.send_task(REBUILD_TASK, queue=celery_queue)
    third = await asyncio.to_thread(other.get, timeout=TIMEOUT)
    assert third["replaced"] == new.generation and third["already_done"] is False
    assert await table_rows(pg_pool, third["generation"]) == old_rows

    # and the live consumer carries on in the swapped-in generation
    await _rated(game_service, game_store, planned_games[8:10])
    await assert_tables_hold(pg_pool, rebuild(await recorded_outcomes(game_store), RatingConfig()))
    assert (await current(pg_pool)).generation == third["generation"]


async def test_a_rebuild_with_a_changed_parameter_rates_from_then_on_with_it(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    await _rated(game_service, game_store, planned_games[:6])
    changed = RatingConfig(k=24.0, role_shrinkage=20.0)
    report = await rebuild_ratings(pg_pool, config=changed, rebuild_id="k24")
    assert report.games == 6 and not report.already_done
    await assert_tables_hold(pg_pool, rebuild(await recorded_outcomes(game_store), changed))
    # games after the rebuild are rated with the generation's parameters, not the defaults
    await _rated(game_service, game_store, planned_games[6:9])
    await assert_tables_hold(pg_pool, rebuild(await recorded_outcomes(game_store), changed))
    # the runtime's drop-and-replay (services/runtime/rebuild.py) keeps them too
    async with pg_pool.acquire() as connection, connection.transaction():
        await ratings_store.reset(connection)
        await connection.execute("DELETE FROM checkpoints WHERE name = $1", SUBSCRIPTION_NAME)
    assert await pg_pool.fetchval("SELECT count(*) FROM ratings_players") == 0
    await ratings_subscription(game_store).run_until_idle()
    await assert_tables_hold(pg_pool, rebuild(await recorded_outcomes(game_store), changed))


async def test_a_rebuild_that_died_half_way_is_resumed_by_its_redelivery(
    game_service: GameService,
    game_store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    planned_games: list[PlannedGame],
) -> None:
    await enter_games(game_service, planned_games[:6])  # no live consumer ran: no generation yet
    async with pg_pool.acquire() as connection:
        # what dead rebuilds leave: one by another id (nobody will finish it), one by ours
        stale = await ratings_store.create_generation(connection, "building", RatingConfig(), "dead")
        ours = await ratings_store.create_generation(connection, "building", RatingConfig(), "resumed")
    handled = 0

    async def dies(event: RecordedEvent, connection: asyncpg.Connection) -> None:
        nonlocal handled
        await RatingsProjection(generation=ours.generation)(event, connection)
        handled += 1
        if handled == 400:
            raise RuntimeError("worker lost")

    half = Subscription(
        game_store, rebuild_checkpoint(ours.generation), dies, categories=CATEGORIES, batch_size=64
    )
    with pytest.raises(RuntimeError, match="worker lost"):
        await half.run_until_idle()
    partly = await ratings_store.generation(pg_pool, ours.generation)
    assert partly is not None and partly.position > 0

    report = await rebuild_ratings(pg_pool, rebuild_id="resumed")
    assert report.generation == ours.generation and report.replaced is None
    assert await ratings_store.generation(pg_pool, stale.generation) is None
    assert await pg_pool.fetchval("SELECT count(*) FROM checkpoints WHERE name LIKE 'ratings-rebuild-%'") == 0
    await assert_tables_hold(pg_pool, rebuild(await recorded_outcomes(game_store), RatingConfig()))
    # the live consumer, started afterwards, finds everything rated
    assert await ratings_subscription(game_store).run_until_idle() == 0
