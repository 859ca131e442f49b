"""`bang-league bench store`: the event store against raw asyncpg on the same database.

Every figure is measured next to its anchor in the same run, on a fresh database of a
PostgreSQL resolved by `infra` (env URL, container, or embedded):

(a) single-event appends, each its own transaction  vs  single-row INSERT commits
(b) one turn (~10 events) per append                vs  `executemany` of the same rows
(c) reading the global stream                       vs  a plain keyset-paged SELECT
(d) commit → projection lag of a live subscription at ~1,000 events/s (p50, p99)

The anchor table has the same columns and unique keys as `events` but none of the store's
work: no optimistic check, no stream row, no hash chain, no ordering lock, no decoding.
"""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import asyncpg
from rich.table import Table

from event_store import (
    NO_STREAM,
    EventMetadata,
    NewEvent,
    PostgresEventStore,
    PostgresNotifications,
    RecordedEvent,
    Subscription,
)
from infra.postgres import create_database, drop_database, resolve_postgres

_RAW_TABLE = """
    CREATE TABLE raw_events (
        position bigserial PRIMARY KEY, stream_name text NOT NULL, version bigint NOT NULL,
        event_id uuid NOT NULL UNIQUE, type text NOT NULL, schema_version int NOT NULL,
        data json NOT NULL, metadata json NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        UNIQUE (stream_name, version))
"""
_RAW_INSERT = """
    INSERT INTO raw_events (stream_name, version, event_id, type, schema_version, data, metadata)
    VALUES ($1, $2, $3, $4, $5, $6, $7)
"""
_RAW_READ = "SELECT * FROM raw_events WHERE position > $1 ORDER BY position LIMIT $2"
_METADATA = EventMetadata(correlation_id="bench", actor="bench-bot")
_ROUNDS = 4  # store and anchor alternate in rounds, so drift (cache, autovacuum) hits both


@dataclass(frozen=True, slots=True)
class Sizes:
    single_events: int = 4000
    turns: int = 600
    turn_size: int = 10
    read_batch: int = 1000
    lag_events: int = 3000
    lag_rate: float = 1000.0


def run(**sizes: Any) -> dict[str, Any]:
    """Run the benchmark (sizes overridable, e.g. tiny ones in a test); JSON-ready figures."""
    return asyncio.run(_run(Sizes(**sizes)))


async def _run(sizes: Sizes) -> dict[str, Any]:
    with resolve_postgres() as postgres:
        dsn = await create_database(postgres.dsn, prefix="bench")
        try:
            store = await PostgresEventStore.open(dsn, min_size=2, max_size=4)
            raw = await asyncpg.connect(dsn)
            try:
                await raw.execute(_RAW_TABLE)
                result: dict[str, Any] = {"postgres_source": postgres.source, **asdict(sizes)}
                result |= await _single_appends(store, raw, sizes)
                result |= await _batch_appends(store, raw, sizes)
                result |= await _reads(store, raw, sizes)
                result |= await _lag(store, dsn, sizes)
                return result
            finally:
                await raw.close()
                await store.close()
        finally:
            await drop_database(postgres.dsn, dsn)


def _event(n: int) -> NewEvent:
    return NewEvent(
        type="DiceRolled",
        data={"player": n % 8, "faces": ["arrow", "beer", "gatling", "dynamite", "bullseye"]},
        metadata=_METADATA,
    )


async def _raw_insert(raw: asyncpg.Connection, stream: str, version: int, event: NewEvent) -> None:
    data = event.data if isinstance(event.data, bytes) else _json(event.data)
    await raw.execute(_RAW_INSERT, stream, version, event.event_id, event.type, 1, data.decode(), '{"a":1}')


def _json(value: dict[str, Any]) -> bytes:
    from event_store import canonical_json

    return canonical_json(value)


async def _single_appends(
    store: PostgresEventStore, raw: asyncpg.Connection, sizes: Sizes
) -> dict[str, float]:
    per_round = max(1, sizes.single_events // _ROUNDS)
    store_seconds = raw_seconds = 0.0
    versions: dict[str, int] = {}
    for round_number in range(_ROUNDS):
        events = [_event(n) for n in range(per_round)]
        started = time.perf_counter()
        for n, event in enumerate(events):
            # A game appends to its own stream, knowing its version: 50 games interleaved.
            stream = f"game-single{n % 50}"
            version = versions.get(stream, 0)
            await store.append(stream, [event], expected_version=version)
            versions[stream] = version + 1
        store_seconds += time.perf_counter() - started

        events = [_event(n) for n in range(per_round)]
        started = time.perf_counter()
        for n, event in enumerate(events):
            await _raw_insert(raw, f"game-raw{round_number}", n + 1, event)
        raw_seconds += time.perf_counter() - started
    total = per_round * _ROUNDS
    return _figures("single_append", total / store_seconds, "raw_single_insert", total / raw_seconds)


async def _batch_appends(
    store: PostgresEventStore, raw: asyncpg.Connection, sizes: Sizes
) -> dict[str, float]:
    per_round = max(1, sizes.turns // _ROUNDS)
    store_seconds = raw_seconds = 0.0
    for round_number in range(_ROUNDS):
        turns = [[_event(n) for n in range(sizes.turn_size)] for _ in range(per_round)]
        started = time.perf_counter()
        for turn_number, turn in enumerate(turns):
            stream = f"game-turns{round_number}-{turn_number % 20}"
            version = (turn_number // 20) * sizes.turn_size
            await store.append(stream, turn, expected_version=version or NO_STREAM)
        store_seconds += time.perf_counter() - started

        turns = [[_event(n) for n in range(sizes.turn_size)] for _ in range(per_round)]
        started = time.perf_counter()
        for turn_number, turn in enumerate(turns):
            stream = f"game-rawturns{round_number}"
            first = turn_number * sizes.turn_size
            await raw.executemany(
                _RAW_INSERT,
                [
                    (stream, first + i + 1, e.event_id, e.type, 1, _json(e.data).decode(), "{}")  # type: ignore[arg-type]
                    for i, e in enumerate(turn)
                ],
            )
        raw_seconds += time.perf_counter() - started
    total = per_round * _ROUNDS * sizes.turn_size
    return _figures("batch_append", total / store_seconds, "raw_batch_insert_events", total / raw_seconds)


async def _reads(store: PostgresEventStore, raw: asyncpg.Connection, sizes: Sizes) -> dict[str, float]:
    store_seconds = raw_seconds = 0.0
    store_count = raw_count = 0
    for _ in range(_ROUNDS):
        started = time.perf_counter()
        async for _event_read in store.iter_all(batch_size=sizes.read_batch):
            store_count += 1
        store_seconds += time.perf_counter() - started

        started = time.perf_counter()
        last = 0
        while rows := await raw.fetch(_RAW_READ, last, sizes.read_batch):
            raw_count += len(rows)
            last = rows[-1]["position"]
        raw_seconds += time.perf_counter() - started
    return _figures("read", store_count / store_seconds, "raw_read", raw_count / raw_seconds)


async def _lag(store: PostgresEventStore, dsn: str, sizes: Sizes) -> dict[str, float]:
    committed: dict[int, float] = {}
    projected: dict[int, float] = {}
    await store.pool.execute("CREATE TABLE lag_projection (position bigint PRIMARY KEY)")
    await store.pool.execute(
        "INSERT INTO checkpoints (name, position) VALUES ('bench-lag', $1)",
        await store.head_position(),
    )

    async def project(event: RecordedEvent, tx: asyncpg.Connection) -> None:
        await tx.execute("INSERT INTO lag_projection VALUES ($1)", event.position)

    async def after_commit(events: Sequence[RecordedEvent]) -> None:
        now = time.perf_counter()
        for event in events:
            projected[event.position] = now

    async with PostgresNotifications(dsn) as wakeups:
        subscription = Subscription(store, "bench-lag", project, wakeups=wakeups, after_commit=after_commit)
        stop = asyncio.Event()
        runner = asyncio.create_task(subscription.run(stop))
        interval = 1.0 / sizes.lag_rate
        started = time.perf_counter()
        for n in range(sizes.lag_events):
            delay = started + n * interval - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            stream = f"lag-{uuid.uuid4().hex[:8]}"
            result = await store.append(stream, [_event(n)], expected_version=NO_STREAM)
            committed[result.last_position] = time.perf_counter()
        rate = sizes.lag_events / (time.perf_counter() - started)
        deadline = time.perf_counter() + 10
        while len(projected) < len(committed) and time.perf_counter() < deadline:
            await asyncio.sleep(0.01)
        stop.set()
        await runner

    # The writer's clock starts when its append returned (commit acknowledged); a projection
    # that commits while that acknowledgement is still being delivered counts as zero lag.
    lags = sorted(max(0.0, projected[p] - t) * 1000 for p, t in committed.items() if p in projected)
    return {
        "lag_p50_ms": round(_percentile(lags, 50), 2),
        "lag_p99_ms": round(_percentile(lags, 99), 2),
        "lag_events_per_second": round(rate, 1),
        "lag_events_missed": len(committed) - len(lags),
    }


def _percentile(values: list[float], percent: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(percent) - 1]


def _figures(name: str, store_rate: float, anchor: str, anchor_rate: float) -> dict[str, float]:
    ratio_key = name.removesuffix("_events") + "_ratio"
    return {
        f"{name}_events_per_second": round(store_rate, 1),
        f"{anchor}_per_second": round(anchor_rate, 1),
        ratio_key: round(store_rate / anchor_rate, 3),
    }


def render(result: dict[str, Any]) -> Table:
    table = Table(title=f"event store vs raw asyncpg (postgres: {result['postgres_source']})")
    table.add_column("measure")
    table.add_column("store", justify="right")
    table.add_column("raw anchor", justify="right")
    table.add_column("ratio", justify="right")
    rows = [
        ("single-event appends (events/s)", "single_append", "raw_single_insert"),
        ("turn appends (events/s)", "batch_append", "raw_batch_insert_events"),
        ("global stream reads (events/s)", "read", "raw_read"),
    ]
    for label, name, anchor in rows:
        table.add_row(
            label,
            f"{result[name + '_events_per_second']:,.0f}",
            f"{result[anchor + '_per_second']:,.0f}",
            f"{result[name + '_ratio']:.2f}",
        )
    table.add_row(
        f"lag commit→projection @ {result['lag_events_per_second']:,.0f} ev/s",
        f"p50 {result['lag_p50_ms']:.1f} ms",
        f"p99 {result['lag_p99_ms']:.1f} ms",
        "",
    )
    return table
