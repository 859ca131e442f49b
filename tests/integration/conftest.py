"""A database of its own for each integration test, on the run's shared servers.

The servers themselves (`resolved_postgres`, `resolved_redis`, `redis_url`) are resolved once
per run in `tests/conftest.py`. Each test gets its own freshly created database, so tests are
isolated and run in parallel.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
from celery import Celery

from infra.postgres import ResolvedPostgres, create_database, drop_database
from services.worker.config import create_app

REPO = Path(__file__).resolve().parents[2]


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
