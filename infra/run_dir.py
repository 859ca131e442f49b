"""A directory shared by the processes of one run (a test session and its pytest-xdist
workers), removed by the last holder (the session's own process, in the test suite).

Each process registers its pid in `<dir>/holders` when it takes the directory and takes it
out when it lets go; the one that leaves no live holder behind removes the directory, so a
test run's embedded servers and their data never outlive it. The lock file sits next to the
directory (`<dir>.lock`) and is removed with it; a process that waited on a lock file that
was removed meanwhile locks the new one instead.

A run that was killed (SIGKILL, a timeout) never lets go: `sweep_abandoned` finds sibling run
dirs whose every holder is dead, stops the servers they left running and removes them.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path

import psutil

from infra.pgdata import DISPOSABLE_MARKER

HOLDERS = "holders"
_STOP_SECONDS = 10.0


def hold_run_dir(path: Path) -> None:
    """Take `path` (created if missing, marked disposable) for this process."""
    with _locked(path):
        path.mkdir(parents=True, exist_ok=True)
        (path / DISPOSABLE_MARKER).touch()
        _write(path, _live(path) | {os.getpid()})


def release_run_dir(path: Path, *, stop_servers: bool = False) -> bool:
    """Let `path` go; remove it when no live process holds it any more. True if removed.
    With `stop_servers`, embedded servers still running from it are stopped first (their own
    holders normally stopped them already; one left running would keep files open)."""
    with _locked(path):
        if not path.exists():  # removed by another holder while we waited: only our lock file is left
            path.with_name(f"{path.name}.lock").unlink(missing_ok=True)
            return False
        others = _live(path) - {os.getpid()}
        if others:
            _write(path, others)
            return False
        if stop_servers:
            _stop_servers_in(path)
        shutil.rmtree(path, ignore_errors=True)
        path.with_name(f"{path.name}.lock").unlink(missing_ok=True)
        return True


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    lock = path.with_name(f"{path.name}.lock")
    while True:
        handle = lock.open("a")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                same = os.fstat(handle.fileno()).st_ino == lock.stat().st_ino
            except FileNotFoundError:
                same = False
            if same:
                yield
                return
        finally:
            handle.close()  # closing lets the flock go


def _live(path: Path) -> set[int]:
    try:
        text = (path / HOLDERS).read_text()
    except FileNotFoundError:
        return set()
    return {int(word) for word in text.split() if word.isdigit() and _alive(int(word))}


def _write(path: Path, pids: set[int]) -> None:
    (path / HOLDERS).write_text("".join(f"{pid}\n" for pid in sorted(pids)))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_abandoned(path: Path) -> list[Path]:
    """Remove the run dirs next to `path` named like it (`<prefix>-<run id>`) that no live
    process holds, after stopping the embedded servers still running in them."""
    prefix = path.name.rsplit("-", 1)[0] + "-"
    removed = []
    for candidate in sorted(path.parent.glob(f"{prefix}*")):
        if candidate == path or not (candidate / HOLDERS).is_file():
            continue  # not a run dir of this scheme (or ours)
        with _locked(candidate):
            if not candidate.exists():  # swept by another process while we waited
                candidate.with_name(f"{candidate.name}.lock").unlink(missing_ok=True)
                continue
            if _live(candidate):
                continue
            _stop_servers_in(candidate)
            shutil.rmtree(candidate, ignore_errors=True)
            candidate.with_name(f"{candidate.name}.lock").unlink(missing_ok=True)
            removed.append(candidate)
    return removed


def _stop_servers_in(directory: Path) -> None:
    """Stop every process whose command line names `directory` (its PostgreSQL and Redis):
    PostgreSQL's postmaster takes SIGINT as a fast shutdown, Redis SIGTERM as a clean one."""
    found = []
    for process in psutil.process_iter(["name", "cmdline"]):
        cmdline = " ".join(process.info["cmdline"] or ())
        if str(directory) + "/" in cmdline and process.pid != os.getpid():
            found.append(process)
    for process in found:
        fast = signal.SIGINT if process.info["name"] in ("postgres", "postmaster") else signal.SIGTERM
        with contextlib.suppress(psutil.Error):
            process.send_signal(fast)
    _, alive = psutil.wait_procs(found, timeout=_STOP_SECONDS)
    for process in alive:
        with contextlib.suppress(psutil.Error):
            process.kill()
