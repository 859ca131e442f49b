"""`bang-league serve` end to end: start from nothing, answer, stop cleanly on SIGINT leaving no
process behind, start again on the same data dir and find the data there."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest

from infra.postgres import resolve_postgres
from infra.settings import InfraSettings
from services.game.edge.tokens import TokenVault
from services.runtime.serve import free_port

pytestmark = pytest.mark.slow

START_TIMEOUT = 90.0


def _serve(data_dir: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("BANG_DATABASE_URL", "BANG_REDIS_URL")}
    env["BANG_STOP_TIMEOUT"] = "10"
    with log.open("ab") as out:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bang_cli.serve",
                "serve",
                "--data-dir",
                str(data_dir),
                "--port",
                str(port),
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=Path(__file__).parents[3],
        )


def _wait_healthy(base: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        assert process.poll() is None, f"serve exited early:\n{log.read_text()[-4000:]}"
        try:
            if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"serve did not become healthy:\n{log.read_text()[-4000:]}")


def _everything_started(process: subprocess.Popen[bytes], data_dir: Path) -> set[int]:
    """The supervisor, every descendant, and the embedded servers (daemons: not descendants)."""
    root = psutil.Process(process.pid)
    pids = {root.pid, *(p.pid for p in root.children(recursive=True))}
    postmaster = (data_dir / "postgres" / "postmaster.pid").read_text().split()[0]
    redis = (data_dir / "redis" / "redis.pid").read_text().strip()
    return pids | {int(postmaster), int(redis)}


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _wait_all_gone(pids: set[int], timeout: float = 10.0) -> set[int]:
    deadline = time.monotonic() + timeout
    while (left := {p for p in pids if _alive(p)}) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def _organiser_token(data_dir: Path) -> str:
    async def issue(dsn: str) -> str:
        import asyncpg

        pool = await asyncpg.create_pool(dsn, min_size=1, max_size=1)
        try:
            return await TokenVault(pool).issue_organiser("test-organiser")
        finally:
            await pool.close()

    settings = InfraSettings.from_env({"BANG_USE_CONTAINERS": "0"})
    # joins the embedded server serve runs (and lets go of it before serve stops)
    with resolve_postgres(data_dir, settings) as postgres:
        return asyncio.run(issue(postgres.dsn))


@pytest.fixture
def data_dir(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "data"


def test_serve_stops_cleanly_and_keeps_its_data(data_dir: Path, tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"

    first = _serve(data_dir, port, log)
    try:
        _wait_healthy(base, first, log)
        started = _everything_started(first, data_dir)
        token = _organiser_token(data_dir)
        created = httpx.post(
            f"{base}/games",
            json={"command_id": "restart-test", "mode": "online", "player_count": 4, "game_id": "kept-1"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert created.status_code == 201, created.text
    finally:
        first.send_signal(signal.SIGINT)
        assert first.wait(timeout=30) == 0, log.read_text()[-4000:]
    assert _wait_all_gone(started) == set(), f"left running: {started}\n{log.read_text()[-3000:]}"

    second = _serve(data_dir, port, log)
    try:
        _wait_healthy(base, second, log)
        again = _everything_started(second, data_dir)
        game = httpx.get(f"{base}/games/kept-1", timeout=5)
        assert game.status_code == 200, game.text
        assert game.json()["game_id"] == "kept-1"
    finally:
        second.send_signal(signal.SIGTERM)
        assert second.wait(timeout=30) == 0, log.read_text()[-4000:]
    assert _wait_all_gone(again) == set()
