"""A directory shared by the processes of one run (a test session and its pytest-xdist
workers), removed by the last holder (the session's own process, in the test suite).

Each process registers its pid in `<dir>/holders` when it takes the directory and takes it
out when it lets go; the one that leaves no live holder behind removes the directory, so a
test run's embedded servers and their data never outlive it. The lock file sits next to the
directory (`<dir>.lock`) and is removed with it; a process that waited on a lock file that
was removed meanwhile locks the new one instead.

A run that is stopped takes its servers with it (`guard_run_dir`, called by the process that made
the directory): SIGTERM or SIGHUP stops the servers and removes the directory, then ends the run
as that signal would have; SIGINT is pytest's own interrupt, whose teardown lets go as usual. A
run killed outright (SIGKILL, the OOM killer) runs no code at all: a watcher process
(`python -m infra.run_watch`, in a session of its own) holds the read end of a pipe whose write
end only the run holds, so the pipe's end of file is the run's end however it came; the watcher
then waits a moment for the run's other holders (its test workers) and does the same. A run that
ended well removed the directory already, and the watcher just exits.

A run dir abandoned anyway (the watcher killed too) is swept by the next run: `sweep_abandoned`
finds sibling run dirs whose every holder is dead, stops the servers they left running and
removes them.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import psutil

from infra.pgdata import DISPOSABLE_MARKER

HOLDERS = "holders"
_STOP_SECONDS = 10.0
WATCHED_DIR_ENV = "BANG_RUN_DIR_WATCHED"
"""The watcher's directory, passed in its environment: a command line naming the directory
would make it one of the processes `_stop_servers_in` stops."""
_REPO = Path(__file__).resolve().parents[1]
_watchers: list[tuple[subprocess.Popen[bytes], int]] = []
"""The watchers this process started, each with the write end of its pipe: held open, never
written, until this process ends."""


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


def guard_run_dir(path: Path) -> None:
    """However this process ends, `path`'s servers stop and `path` goes (module docstring)."""
    read_end, write_end = os.pipe()  # neither end is inherited by the run's own children
    try:
        watcher = subprocess.Popen(
            [sys.executable, "-m", "infra.run_watch", str(read_end)],
            pass_fds=(read_end,),
            cwd=_REPO,
            env={**os.environ, WATCHED_DIR_ENV: str(path)},
            # nothing of the run's own: a reader of the run's output is not kept waiting on it
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a terminal's Ctrl-C or a group kill is not for the watcher
        )
    finally:
        os.close(read_end)
    _watchers.append((watcher, write_end))
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, lambda signum, frame: _stop_and_die(path, signum, frame))


def _stop_and_die(path: Path, signum: int, frame: FrameType | None) -> None:
    """A signal handler: stop `path`'s servers, remove it, then die of the same signal (the
    exit status says which). No lock taken: the interrupted code may hold it."""
    _stop_servers_in(path)
    shutil.rmtree(path, ignore_errors=True)
    path.with_name(f"{path.name}.lock").unlink(missing_ok=True)
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def abandon_run_dir(path: Path, *, grace: float = 5.0) -> bool:
    """The run that held `path` is over: wait up to `grace` seconds for its other holders to
    end, then stop its servers and remove it whoever still holds it. False if it was gone."""
    deadline = time.monotonic() + grace
    while path.exists() and _live(path) and time.monotonic() < deadline:
        time.sleep(0.1)
    with _locked(path):
        if not path.exists():
            path.with_name(f"{path.name}.lock").unlink(missing_ok=True)
            return False
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
