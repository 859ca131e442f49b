"""`bang-league serve` recovers from a killed embedded postmaster by itself: `/health` comes
back green and writes succeed again, without restarting serve."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psutil
import pytest

from services.runtime.serve import free_port

pytestmark = pytest.mark.slow

START_TIMEOUT = 90.0
RECOVERY_TIMEOUT = 60.0  # generous: crash recovery on a shared 2-core machine


def _serve(data_dir: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("BANG_DATABASE_URL", "BANG_REDIS_URL")}
    env["BANG_STOP_TIMEOUT"] = "10"
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "bang_cli.serve", "serve", "--data-dir", str(data_dir),
             "--port", str(port), "--no-worker"],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=Path(__file__).parents[3],
        )  # fmt: skip


def _healthy(base: str) -> bool:
    try:
        return httpx.get(f"{base}/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _wait(condition: object, timeout: float, what: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert process.poll() is None, f"serve exited:\n{log.read_text()[-4000:]}"
        assert time.monotonic() < deadline, f"timed out waiting for {what}:\n{log.read_text()[-4000:]}"
        time.sleep(0.3)


def _postmaster(data_dir: Path) -> int:
    return int((data_dir / "postgres" / "postmaster.pid").read_text().split()[0])


def _restarted(data_dir: Path, old: int) -> bool:
    try:
        new = _postmaster(data_dir)
    except (OSError, ValueError, IndexError):
        return False
    return new != old and psutil.pid_exists(new)


def _token(data_dir: Path) -> str:
    from tests.integration.runtime.test_serve import _organiser_token

    return _organiser_token(data_dir)


def test_a_killed_postmaster_is_restarted_and_the_api_recovers(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    process = _serve(data_dir, port, log)
    try:
        _wait(lambda: _healthy(base), START_TIMEOUT, "serve to start", process, log)
        token = _token(data_dir)
        headers = {"Authorization": f"Bearer {token}"}

        def create(game_id: str) -> httpx.Response:
            body = {"command_id": f"new-{game_id}", "mode": "online", "player_count": 4, "game_id": game_id}
            return httpx.post(f"{base}/games", json=body, headers=headers, timeout=10)

        assert create("before-kill").status_code == 201
        old = _postmaster(data_dir)
        os.kill(old, signal.SIGKILL)
        _wait(lambda: _restarted(data_dir, old), RECOVERY_TIMEOUT, "a new postmaster", process, log)
        _wait(lambda: _healthy(base), RECOVERY_TIMEOUT, "the API to recover", process, log)
        assert process.poll() is None  # the same serve, never restarted by hand
        created = create("after-kill")
        assert created.status_code == 201, created.text
        assert httpx.get(f"{base}/games/before-kill", timeout=5).status_code == 200
        assert httpx.get(f"{base}/games/after-kill", timeout=5).status_code == 200
        assert "embedded PostgreSQL restarted" in log.read_text()
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0, log.read_text()[-4000:]
