"""Catch-up subscriptions: exactly-once projections across crashes, and wake-ups."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

import asyncpg
import pytest

from event_store import (
    ANY,
    NewEvent,
    PostgresEventStore,
    PostgresNotifications,
    RecordedEvent,
    RedisNotifications,
    RedisPositionPublisher,
    Subscription,
    checkpoint_of,
    redis_channel_for,
)

PROJECTION = """
    CREATE TABLE IF NOT EXISTS roll_totals (
        stream text PRIMARY KEY, rolls int NOT NULL, pips bigint NOT NULL)
"""


async def count_roll(event: RecordedEvent, tx: asyncpg.Connection) -> None:
    await tx.execute(
        """INSERT INTO roll_totals VALUES ($1, 1, $2)
           ON CONFLICT (stream) DO UPDATE
           SET rolls = roll_totals.rolls + 1, pips = roll_totals.pips + excluded.pips""",
        event.stream,
        event.data["pips"],
    )


async def totals(store: PostgresEventStore) -> dict[str, tuple[int, int]]:
    rows = await store.pool.fetch("SELECT stream, rolls, pips FROM roll_totals")
    return {row["stream"]: (row["rolls"], row["pips"]) for row in rows}


async def fill(store: PostgresEventStore, games: int = 4, rolls: int = 10) -> dict:
    expected: dict[str, tuple[int, int]] = {}
    for roll in range(rolls):
        for game in range(games):
            stream = f"game-{game}"
            await store.append(
                stream, [NewEvent(type="DiceRolled", data={"pips": roll})], expected_version=ANY
            )
            count, pips = expected.get(stream, (0, 0))
            expected[stream] = (count + 1, pips + roll)
    await store.append("league-1", [NewEvent(type="Opened", data={})], expected_version=ANY)
    return expected


@pytest.fixture
async def projection_store(store: PostgresEventStore) -> PostgresEventStore:
    await store.pool.execute(PROJECTION)
    return store


async def test_a_projection_catches_up_exactly_once(projection_store: PostgresEventStore) -> None:
    store = projection_store
    expected = await fill(store)
    seen_after_commit: list[int] = []

    async def after_commit(events: Sequence[RecordedEvent]) -> None:
        seen_after_commit.extend(e.position for e in events)

    subscription = Subscription(
        store, "roll-totals", count_roll, categories=["game"], batch_size=7,
        after_commit=after_commit,
    )  # fmt: skip
    assert await subscription.run_until_idle() == 40
    assert await totals(store) == expected
    assert await subscription.position() == 40  # the league event (41) is not its business
    assert seen_after_commit == list(range(1, 41))
    assert await subscription.run_until_idle() == 0  # nothing twice


async def test_a_subscriber_that_fails_mid_batch_resumes_as_if_it_never_stopped(
    projection_store: PostgresEventStore,
) -> None:
    store = projection_store
    expected = await fill(store)
    handled = 0

    async def crash_on_the_25th(event: RecordedEvent, tx: asyncpg.Connection) -> None:
        nonlocal handled
        handled += 1
        if handled == 25:
            raise RuntimeError("power cut")
        await count_roll(event, tx)

    crashing = Subscription(store, "roll-totals", crash_on_the_25th, categories=["game"],
                            batch_size=10)  # fmt: skip
    with pytest.raises(RuntimeError, match="power cut"):
        await crashing.run_until_idle()
    # Batches 1-2 committed with their checkpoint; the half-done third rolled back whole.
    assert await checkpoint_of(store.pool, "roll-totals") == 20
    assert sum(rolls for rolls, _ in (await totals(store)).values()) == 20

    restarted = Subscription(store, "roll-totals", count_roll, categories=["game"])
    assert await restarted.run_until_idle() == 20
    assert await totals(store) == expected


async def test_a_subscriber_cancelled_mid_batch_resumes_as_if_it_never_stopped(
    projection_store: PostgresEventStore,
) -> None:
    store = projection_store
    expected = await fill(store)
    handled = 0
    stuck = asyncio.Event()

    async def hang_on_the_13th(event: RecordedEvent, tx: asyncpg.Connection) -> None:
        nonlocal handled
        await count_roll(event, tx)
        handled += 1
        if handled == 13:
            stuck.set()
            await asyncio.sleep(3600)

    first = Subscription(store, "roll-totals", hang_on_the_13th, batch_size=5)
    task = asyncio.create_task(first.run(asyncio.Event()))
    await stuck.wait()
    task.cancel()  # the process is killed while the third batch is half applied
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await checkpoint_of(store.pool, "roll-totals") == 10

    restarted = Subscription(store, "roll-totals", count_roll, categories=["game"])
    await restarted.run_until_idle()
    assert await totals(store) == expected


async def test_two_runners_of_one_subscription_never_apply_an_event_twice(
    projection_store: PostgresEventStore,
) -> None:
    store = projection_store
    expected = await fill(store)
    runners = [
        Subscription(store, "roll-totals", count_roll, categories=["game"], batch_size=3) for _ in range(3)
    ]
    counts = await asyncio.gather(*(r.run_until_idle() for r in runners))
    assert sum(counts) == 40
    assert await totals(store) == expected


async def _lag_of_one_append(store: PostgresEventStore, subscription: Subscription, stream: str) -> float:
    stop = asyncio.Event()
    runner = asyncio.create_task(subscription.run(stop))
    await asyncio.sleep(0.2)  # let it catch up and go to sleep
    started = time.monotonic()
    await store.append(stream, [NewEvent(type="DiceRolled", data={"pips": 1})], expected_version=0)
    while (await totals(store)).get(stream) is None:
        await asyncio.sleep(0.005)
    lag = time.monotonic() - started
    stop.set()
    await runner
    return lag


async def test_postgres_notifications_wake_a_sleeping_subscriber(
    projection_store: PostgresEventStore, database_dsn: str
) -> None:
    async with PostgresNotifications(database_dsn) as wakeups:
        subscription = Subscription(
            projection_store, "roll-totals", count_roll, wakeups=wakeups, poll_interval=30
        )
        # Far sooner than the 30 s poll: the NOTIFY woke it.
        assert await _lag_of_one_append(projection_store, subscription, "game-n") < 5


async def test_redis_notifications_wake_a_sleeping_subscriber(database_dsn: str, redis_url: str) -> None:
    channel = redis_channel_for(database_dsn.rsplit("/", 1)[-1])
    publisher = RedisPositionPublisher(redis_url, channel)
    await publisher.start()
    try:
        async with (
            await PostgresEventStore.open(database_dsn, publisher=publisher) as store,
            RedisNotifications(redis_url, channel) as wakeups,
        ):
            await store.pool.execute(PROJECTION)
            subscription = Subscription(store, "roll-totals", count_roll, wakeups=wakeups, poll_interval=30)
            assert await _lag_of_one_append(store, subscription, "game-r") < 5
    finally:
        await publisher.close()


async def test_without_notifications_polling_still_delivers(
    projection_store: PostgresEventStore,
) -> None:
    subscription = Subscription(projection_store, "roll-totals", count_roll, poll_interval=0.05)
    assert await _lag_of_one_append(projection_store, subscription, "game-p") < 5
