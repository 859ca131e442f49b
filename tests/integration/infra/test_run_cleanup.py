"""A test run that is stopped takes its embedded servers with it (issue 20, finding 11):
``python -m pytest`` on a file that starts this run's PostgreSQL and Redis is sent SIGTERM,
SIGINT or SIGKILL once they answer; soon after, no process of its run dir is left and the run
dir is gone (infra/run_dir.py: a signal handler in the run, and a watcher for SIGKILL)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import pytest

REPO = Path(__file__).resolve().parents[3]
TARGET = Path(__file__).with_name("run_servers_target.py")
UP_SECONDS = 120.0
"""Starting an embedded PostgreSQL (initdb) on a loaded two-core machine."""
GONE_SECONDS = 20.0


def _of_run_dir(run_dir: Path) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter(["cmdline"]):
        with_dir = str(run_dir) + "/"
        if any(with_dir in part or part == str(run_dir) for part in process.info["cmdline"] or ()):
            found.append(process)
    return found


def _server_pids(run_dir: Path) -> set[int]:
    """The postmaster's and redis-server's pids, from their pid files."""
    pids = set()
    for pidfile in (run_dir / "postgres" / "postmaster.pid", run_dir / "redis" / "redis.pid"):
        pids.add(int(pidfile.read_text().split()[0]))
    return pids


def _environment(probe: Path, temp: Path) -> dict[str, str]:
    """The run's own temp folder: no other run on this machine sweeps (and so cleans up for it)
    what it leaves; a short path, as the servers' Unix sockets need."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BANG_", "PYTEST_"))}
    return {
        **env,
        "BANG_CLEANUP_PROBE": str(probe),
        "PYTHONPATH": str(REPO),
        "BANG_USE_CONTAINERS": "no",
        "TMPDIR": str(temp),
    }


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL], ids=lambda s: s.name)
def test_a_stopped_run_leaves_no_server_behind(tmp_path: Path, sig: signal.Signals) -> None:
    probe = tmp_path / "probe.json"
    temp = Path(tempfile.mkdtemp(prefix="bang-rc-", dir="/tmp"))
    servers: list[psutil.Process] = []
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", str(TARGET)],
        cwd=REPO,
        env=_environment(probe, temp),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + UP_SECONDS
        while not probe.exists():
            assert run.poll() is None, f"the run ended before its servers were up ({run.returncode})"
            assert time.monotonic() < deadline, "the run's servers did not start"
            time.sleep(0.1)
        run_dir = Path(json.loads(probe.read_text())["run_dir"])
        servers = [psutil.Process(pid) for pid in _server_pids(run_dir)]
        assert len(servers) == 2 and all(s.is_running() for s in servers)

        run.send_signal(sig)
        run.wait(timeout=GONE_SECONDS)
        _, left = psutil.wait_procs(servers, timeout=GONE_SECONDS)
        assert left == [], f"still running after {sig.name}: {left}"
        deadline = time.monotonic() + GONE_SECONDS
        while (run_dir.exists() or _of_run_dir(run_dir)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not run_dir.exists(), f"{run_dir} is still there after {sig.name}"
        assert _of_run_dir(run_dir) == []
    finally:
        if run.poll() is None:
            run.kill()
            run.wait(timeout=10)
        for server in servers:  # a failed test leaves nothing running either
            with contextlib.suppress(psutil.Error):
                server.kill()
        shutil.rmtree(temp, ignore_errors=True)
