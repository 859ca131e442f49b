"""The league's Celery tasks on a real worker (a subprocess on the test Redis): a task
delivered twice changes nothing the second time."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest
from celery import Celery

from event_store import PostgresEventStore
from services.league import read_model
from services.league.service import LeagueService
from services.worker.config import create_app

from .league_setup import CARE, LEAGUE, MEMBERS, SEASON, TOURNAMENT, found_league

REPO = Path(__file__).resolve().parents[3]
TIMEOUT = 60


@pytest.fixture
def queue() -> str:
    return f"league-test-{uuid.uuid4().hex[:12]}"  # the test Redis is shared: one queue per test


@pytest.fixture
def worker(database_dsn: str, redis_url: str, queue: str) -> Iterator[subprocess.Popen[bytes]]:
    env = {**os.environ, "BANG_DATABASE_URL": database_dsn, "BANG_REDIS_URL": redis_url}
    command = [
        sys.executable, "-m", "celery", "-A", "services.worker.app", "worker",
        "--pool=solo", f"--queues={queue}", f"--hostname={queue}@%h",
        "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=WARNING",
    ]  # fmt: skip
    process = subprocess.Popen(command, cwd=REPO, env=env)
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def client(redis_url: str) -> Iterator[Celery]:
    app = create_app(redis_url)
    yield app
    app.close()


async def events_in_store(pool: asyncpg.Pool) -> int:
    return int(await pool.fetchval("SELECT count(*) FROM events"))


def run_task(client: Celery, queue: str, name: str, *args: object, task_id: str | None = None) -> object:
    return client.send_task(name, args=list(args), queue=queue, task_id=task_id).get(timeout=TIMEOUT)


async def test_tasks_run_on_a_real_worker_and_a_duplicate_delivery_changes_nothing(
    league: LeagueService,
    store: PostgresEventStore,
    pg_pool: asyncpg.Pool,
    worker: subprocess.Popen[bytes],
    client: Celery,
    queue: str,
) -> None:
    await found_league(league)

    seated = run_task(client, queue, "league.seat_round", LEAGUE, TOURNAMENT, 1, "celery", task_id="seat-1")
    assert isinstance(seated, dict) and seated["round"] == 1
    before = await events_in_store(pg_pool)
    # the same message delivered again (same task id, same arguments): the same answer, no event
    assert (
        run_task(client, queue, "league.seat_round", LEAGUE, TOURNAMENT, 1, "celery", task_id="seat-1")
        == seated
    )
    assert await events_in_store(pg_pool) == before

    played = run_task(client, queue, "league.play_bot_round", LEAGUE, TOURNAMENT, 1, "celery", CARE)
    assert isinstance(played, dict) and len(played["games"]) == 2 and played["moves"] > 0
    after_round = await events_in_store(pg_pool)
    standings = await read_model.standings(pg_pool, LEAGUE, SEASON)
    assert sum(s.games for s in standings) == 10  # the task caught the projection up

    replayed = run_task(client, queue, "league.play_bot_round", LEAGUE, TOURNAMENT, 1, "celery", CARE)
    assert isinstance(replayed, dict)
    assert replayed["games"] == played["games"] and replayed["winning_sides"] == played["winning_sides"]
    assert replayed["moves"] == 0
    assert await events_in_store(pg_pool) == after_round
    assert await read_model.standings(pg_pool, LEAGUE, SEASON) == standings

    rollover = ("league.season_rollover", LEAGUE, SEASON, "s2026", "2026")
    assert run_task(client, queue, *rollover)["players"] == list(MEMBERS)  # type: ignore[index]
    after_rollover = await events_in_store(pg_pool)
    run_task(client, queue, *rollover)
    assert await events_in_store(pg_pool) == after_rollover
    state = await league.load_league(LEAGUE)
    assert state.seasons[SEASON].closed and state.seasons["s2026"].entrants == list(MEMBERS)

    rebuilt = run_task(client, queue, "league.rebuild_standings")
    assert isinstance(rebuilt, dict) and rebuilt["replayed"] > 0
    assert await read_model.standings(pg_pool, LEAGUE, SEASON) == standings
    assert worker.poll() is None
