"""Operator work on a real database: league export/import, rebuilds, consumers taking turns,
backups. One demo league (bots) is the data throughout."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from prometheus_client import REGISTRY

from infra.postgres import ResolvedPostgres, create_database, drop_database
from services.game.application.codec import GAME_MAPPER
from services.league.demo import DEMO_LEAGUE, seed_demo
from services.league.transfer import HashMismatch, export_league, import_league, read_lines
from services.runtime.backup import backup, restore
from services.runtime.consumers import measure_lag, run_consumers
from services.runtime.context import RuntimeContext, open_context
from services.runtime.database import prepare_all
from services.runtime.projections import registered, select
from services.runtime.rebuild import rebuild

STANDINGS = "SELECT * FROM league_standings ORDER BY league_id, season_id, member_id"


@pytest.fixture
async def context(database_dsn: str, redis_url: str) -> AsyncIterator[RuntimeContext]:
    async with open_context(database_dsn, redis_url, mapper=GAME_MAPPER, max_connections=6) as ctx:
        await prepare_all(ctx.pool, registered().values())
        yield ctx


@pytest.fixture
async def other_dsn(resolved_postgres: ResolvedPostgres) -> AsyncIterator[str]:
    dsn = await create_database(resolved_postgres.dsn, prefix="test")
    yield dsn
    await drop_database(resolved_postgres.dsn, dsn)


def _appends(category: str) -> float:
    labels = {"category": category, "outcome": "appended"}
    return REGISTRY.get_sample_value("bang_event_appends_total", labels) or 0.0


async def _rows(pool: asyncpg.Pool, sql: str) -> list[tuple[object, ...]]:
    return [tuple(r) for r in await pool.fetch(sql)]


async def test_a_league_moves_to_another_server_and_a_second_import_changes_nothing(
    context: RuntimeContext, other_dsn: str, redis_url: str, tmp_path: Path
) -> None:
    appended_before = _appends("game")
    await seed_demo(context, players=8, rounds=1)
    assert _appends("game") > appended_before  # the runtime's store is metered
    standings = select(registered(), ["league-standings"])[0]
    await rebuild(context, standings)
    file = tmp_path / "demo.jsonl"
    exported = await export_league(context.pool, DEMO_LEAGUE, file, with_seeds=True)
    assert exported.streams == 4  # league, club, two games
    lines = list(read_lines(file))

    async with open_context(other_dsn, redis_url, mapper=GAME_MAPPER, listen=False) as target:
        await prepare_all(target.pool, registered().values())
        first = await import_league(target.store, lines)
        again = await import_league(target.store, lines)
        assert first.appended == first.events == exported.events
        assert again.appended == 0
        await rebuild(target, standings)
        # the demo's card league stays behind: only the exported league's lines
        here = [row for row in await _rows(context.pool, STANDINGS) if row[0] == DEMO_LEAGUE]
        assert await _rows(target.pool, STANDINGS) == here

        tampered = [{**lines[0], "hash": "00" * 32}, *lines[1:]]
        with pytest.raises(HashMismatch):
            await import_league(target.store, tampered)

    with pytest.raises(LookupError):
        await export_league(context.pool, "nobody", tmp_path / "none.jsonl")
    assert not (tmp_path / "none.jsonl").exists()


async def test_rebuild_and_two_consumers_taking_turns_give_the_same_read_model(
    context: RuntimeContext,
) -> None:
    await seed_demo(context, players=8, rounds=1)
    spec = select(registered(), ["league-standings"])[0]
    await rebuild(context, spec)
    expected = await _rows(context.pool, STANDINGS)
    assert expected

    await rebuild(context, spec)
    assert await _rows(context.pool, STANDINGS) == expected

    # reset, then two copies of the consumer race for the same checkpoint
    from services.runtime.rebuild import reset_projection

    await reset_projection(context, spec)
    stop = asyncio.Event()
    copies = [asyncio.create_task(run_consumers(context, [spec], stop)) for _ in range(2)]
    for _ in range(200):
        if (await measure_lag(context, [spec.name]))[spec.name]["lag"] == 0:
            break
        await asyncio.sleep(0.05)
    stop.set()
    await asyncio.gather(*copies)
    assert await _rows(context.pool, STANDINGS) == expected


async def test_backup_then_restore_gives_back_the_same_events(
    context: RuntimeContext, other_dsn: str, redis_url: str, tmp_path: Path
) -> None:
    await seed_demo(context, players=8, rounds=1)
    dump = tmp_path / "bang.dump"
    await asyncio.to_thread(backup, context.dsn, dump)
    assert dump.stat().st_size > 0
    await asyncio.to_thread(restore, other_dsn, dump)
    events = "SELECT position, stream_name, version, hash FROM events ORDER BY position"
    restored = await asyncpg.connect(other_dsn)
    try:
        assert [tuple(r) for r in await restored.fetch(events)] == await _rows(context.pool, events)
    finally:
        await restored.close()
    # restoring over a database that has data replaces it, in one transaction
    await asyncio.to_thread(restore, other_dsn, dump)
