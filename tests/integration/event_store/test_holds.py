"""Poison events: a following subscription that cannot apply an event is held there (not
crashed, not retried forever), the other subscribers keep up, and an operator resolves the
hold by retrying after a fix or by skipping exactly that one event with a reason."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import asyncpg
import pytest

from event_store import ANY, NewEvent, PostgresEventStore, RecordedEvent, Subscription, checkpoint_of
from event_store.subscription import (
    FailedAttempt,
    NotHeld,
    SkipRefused,
    describe_error,
    hold_history,
    open_holds,
    retry_held,
    skip_held,
)

TOTALS = (
    "CREATE TABLE IF NOT EXISTS pip_totals (stream text PRIMARY KEY, rolls int NOT NULL, pips int NOT NULL)"
)
POISON_PIPS = 1_099_511_627_776  # 2**40: no PostgreSQL integer column takes it
WAIT_SECONDS = 20.0  # generous: a shared machine; each wait normally ends in well under a second


async def add_pips(event: RecordedEvent, tx: asyncpg.Connection) -> None:
    await tx.execute(
        "INSERT INTO pip_totals VALUES ($1, 1, $2) ON CONFLICT (stream) DO UPDATE"
        " SET rolls = pip_totals.rolls + 1, pips = excluded.pips",
        event.stream,
        event.data["pips"],
    )


async def rolls(store: PostgresEventStore) -> int:
    return await store.pool.fetchval("SELECT coalesce(sum(rolls), 0) FROM pip_totals")


async def roll(store: PostgresEventStore, stream: str, pips: int) -> int:
    event = NewEvent(type="DiceRolled", data={"pips": pips})
    result = await store.append(stream, [event], expected_version=ANY)
    return result.positions[-1]


async def eventually(check: Callable[[], object], what: str) -> None:
    deadline = asyncio.get_running_loop().time() + WAIT_SECONDS
    while not await check():  # type: ignore[misc]
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


@pytest.fixture
async def totals_store(store: PostgresEventStore) -> AsyncIterator[PostgresEventStore]:
    await store.pool.execute(TOTALS)
    yield store


def following(store: PostgresEventStore, name: str, handler=add_pips, **options: object) -> Subscription:  # type: ignore[no-untyped-def]
    return Subscription(
        store, name, handler, categories=["game"], batch_size=50, poll_interval=0.05, retry_delay=0.01,
        **options,  # type: ignore[arg-type]
    )  # fmt: skip


async def test_a_poison_event_holds_its_subscription_and_a_skip_moves_exactly_past_it(
    totals_store: PostgresEventStore,
) -> None:
    store = totals_store
    for pips in range(5):
        await roll(store, "game-a", pips)
    poison = await roll(store, "game-b", POISON_PIPS)
    for pips in range(3):
        await roll(store, "game-c", pips)
    attempts: list[FailedAttempt] = []
    held = following(store, "pips", on_failure=attempts.append)
    # another subscriber that does not mind the poison (it counts events only)
    counted: list[int] = []

    async def count(event: RecordedEvent, _tx: asyncpg.Connection) -> None:
        counted.append(event.position)

    other = following(store, "counter", count)
    stop = asyncio.Event()
    runners = [asyncio.create_task(held.run(stop)), asyncio.create_task(other.run(stop))]
    try:
        await eventually(held.held_at, "the hold")
        assert await held.held_at() == poison
        # everything before the poison is applied, nothing after it, and the runner is alive
        assert await checkpoint_of(store.pool, "pips") == poison - 1
        assert await rolls(store) == 5
        assert not any(r.done() for r in runners)
        hold = (await open_holds(store.pool))["pips"]
        where = (hold.position, hold.stream, hold.version, hold.event_type)
        assert where == (poison, "game-b", 1, "DiceRolled")
        assert hold.error_class == "asyncpg.exceptions.DataError"
        assert hold.attempts == 3 and hold.status == "held"
        assert str(POISON_PIPS) not in hold.error_message  # the payload's value is not repeated
        assert [(a.event.position, a.attempt, a.held) for a in attempts] == [
            (poison, 1, False), (poison, 2, False), (poison, 3, True),
        ]  # fmt: skip

        later = await roll(store, "game-c", 9)  # the others keep up meanwhile
        await eventually(lambda: _at(store, "counter", later), "the other subscriber")
        assert await checkpoint_of(store.pool, "pips") == poison - 1

        with pytest.raises(SkipRefused, match=f"held at position {poison}, not {poison + 1}"):
            await skip_held(store.pool, "pips", poison + 1, by="ops", reason="wrong one")
        with pytest.raises(SkipRefused, match="reason: required"):
            await skip_held(store.pool, "pips", poison, by="ops", reason="  ")
        with pytest.raises(SkipRefused, match="control characters"):
            await skip_held(store.pool, "pips", poison, by="ops", reason="ok\x1b[31m")
        with pytest.raises(NotHeld):
            await skip_held(store.pool, "counter", later, by="ops", reason="not held")
        assert await checkpoint_of(store.pool, "pips") == poison - 1  # refusals changed nothing

        skipped = await skip_held(store.pool, "pips", poison, by="ops", reason="round out of range (issue 9)")
        assert (skipped.status, skipped.resolved_by, skipped.reason) == (
            "skipped",
            "ops",
            "round out of range (issue 9)",
        )
        await eventually(lambda: _at(store, "pips", later), "the skip to be picked up")
        assert await rolls(store) == 5 + 3 + 1  # every event but the skipped one
        assert await open_holds(store.pool) == {}
        assert [h.status for h in await hold_history(store.pool, "pips")] == ["skipped"]
    finally:
        stop.set()
        await asyncio.gather(*runners)


async def test_a_retry_after_a_fix_resumes_without_a_restart(totals_store: PostgresEventStore) -> None:
    store = totals_store
    fixed = False

    async def refuses_until_fixed(event: RecordedEvent, tx: asyncpg.Connection) -> None:
        if event.data["pips"] == 6 and not fixed:
            raise ValueError("pips 'six' not understood")
        await add_pips(event, tx)

    for pips in range(10):
        await roll(store, f"game-{pips % 3}", pips)
    subscription = following(store, "pips", refuses_until_fixed)
    stop = asyncio.Event()
    runner = asyncio.create_task(subscription.run(stop))
    try:
        await eventually(subscription.held_at, "the hold")
        hold = (await open_holds(store.pool))["pips"]
        assert hold.error_class == "ValueError"
        assert hold.error_message == "pips '…' not understood"
        assert await rolls(store) == 6

        fixed = True  # the fix is deployed; until the operator says so, it stays held
        await asyncio.sleep(0.3)
        assert await rolls(store) == 6
        retried = await retry_held(store.pool, "pips", by="ops", reason="fixed in 1.2.1")
        assert retried.status == "retried"
        await eventually(lambda: _at(store, "pips", 10), "the retry to be picked up")
        assert await rolls(store) == 10
        with pytest.raises(NotHeld):
            await retry_held(store.pool, "pips", by="ops")
        assert not runner.done()
    finally:
        stop.set()
        await runner


async def test_a_transient_failure_is_retried_alone_and_never_held(totals_store: PostgresEventStore) -> None:
    store = totals_store
    failures = 0

    async def fails_twice(event: RecordedEvent, tx: asyncpg.Connection) -> None:
        nonlocal failures
        if event.data["pips"] == 4 and failures < 2:
            failures += 1
            raise RuntimeError("flaky")
        await add_pips(event, tx)

    for pips in range(8):
        await roll(store, "game-a", pips)
    subscription = following(store, "pips", fails_twice)
    stop = asyncio.Event()
    runner = asyncio.create_task(subscription.run(stop))
    try:
        await eventually(lambda: _at(store, "pips", 8), "catching up")
        assert failures == 2
        assert await hold_history(store.pool) == []
        assert await rolls(store) == 8
    finally:
        stop.set()
        await runner


async def test_handle_next_batch_still_raises_the_handlers_error(totals_store: PostgresEventStore) -> None:
    store = totals_store
    await roll(store, "game-a", POISON_PIPS)
    with pytest.raises(asyncpg.DataError):
        await following(store, "pips").run_until_idle()
    assert await hold_history(store.pool) == []  # only a following runner holds


def test_error_descriptions_keep_the_shape_and_drop_the_values() -> None:
    error = asyncpg.DataError(
        "invalid input for query argument $5: 99999999999999999999 (value out of int32 range)"
    )
    assert describe_error(error) == (
        "asyncpg.exceptions.DataError",
        "[22000] invalid input for query argument $5: … (value out of int32 range)",
    )
    nul = asyncpg.exceptions.CharacterNotInRepertoireError('invalid byte sequence for encoding "UTF8": 0x00')
    assert describe_error(nul)[1] == "[22021] invalid byte sequence for encoding '…': 0x00"
    secret = KeyError("renegade-seed-5f2b9c0d1e7a4b3c")
    assert describe_error(secret) == ("KeyError", "'…'")
    assert describe_error(RuntimeError("x" * 1000))[1] == "…"
    assert len(describe_error(RuntimeError("a b " * 500))[1]) == 200


async def _at(store: PostgresEventStore, name: str, position: int) -> bool:
    return await checkpoint_of(store.pool, name) >= position
