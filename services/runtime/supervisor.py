"""A small process supervisor: start children, restart the ones that die, stop them all.

Each child runs in its own session (so its own process group): a terminal's Ctrl-C reaches
only the supervisor, which then stops the children in order instead of all of them dying at
once mid-write, and stopping a child's group also stops whatever it forked (Celery's pool,
uvicorn's reloader). Stopping is SIGTERM to every group, then SIGKILL to the groups still
alive after the timeout. A child that dies is restarted after a growing back-off.

A child that keeps dying right after start-up is *crash-looping*: it is logged loudly, shown as
such by `states()` (serve's `/health`), and still restarted, every 30 s at most. The supervisor
never gives up on it by stopping everything: the others (the API above all) and the database
under them keep serving, and the crash-looping child comes back by itself once its cause is
gone (the database it waited for is up again, a hold was resolved).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from services.runtime.logging import get_logger

log = get_logger(__name__)

_POLL_SECONDS = 0.2
MAX_BACKOFF_SECONDS = 30.0
STABLE_AFTER_SECONDS = 30.0
"""A child that ran this long counts as having started fine; its crash count starts over."""
CRASH_LOOP_AFTER = 5
"""Quick crashes in a row after which a child is reported as crash-looping."""


@dataclass(frozen=True, slots=True)
class ChildSpec:
    name: str
    argv: Sequence[str]
    env: Mapping[str, str] = field(default_factory=dict)
    """Added to (and overriding) the supervisor's own environment."""
    restart: bool = True
    """False for a one-shot job (seeding a demo): it runs once, whatever its outcome."""


@dataclass(slots=True)
class _Child:
    spec: ChildSpec
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    quick_crashes: int = 0
    restart_at: float | None = None
    finished: bool = False
    restarts: int = 0
    last_exit_code: int | None = None


@dataclass(frozen=True, slots=True)
class ChildState:
    """What `/health` and the logs say about one child."""

    state: str
    """running, restarting, crash-looping, finished (a one-shot job), or not started."""
    pid: int | None
    restarts: int
    last_exit_code: int | None

    @property
    def healthy(self) -> bool:
        return self.state in ("running", "restarting", "finished")


class Supervisor:
    def __init__(
        self,
        children: Sequence[ChildSpec],
        *,
        stop_timeout: float = 10.0,
        max_backoff: float = MAX_BACKOFF_SECONDS,
        stable_after: float = STABLE_AFTER_SECONDS,
    ) -> None:
        self._children = [_Child(spec) for spec in children]
        self.stop_timeout = stop_timeout
        self.max_backoff = max_backoff
        self.stable_after = stable_after
        self.stopping = threading.Event()

    @property
    def pids(self) -> dict[str, int]:
        return {c.spec.name: c.process.pid for c in self._children if c.process is not None}

    def states(self) -> dict[str, ChildState]:
        """Each child's state, readable from another thread (a health server's)."""
        return {c.spec.name: _state_of(c) for c in list(self._children)}

    def start(self) -> None:
        for child in self._children:
            self._spawn(child)

    def _spawn(self, child: _Child) -> None:
        env = {**os.environ, **child.spec.env}
        child.process = subprocess.Popen(list(child.spec.argv), env=env, start_new_session=True)
        child.started_at = time.monotonic()
        child.restart_at = None
        log.info("child started", child=child.spec.name, pid=child.process.pid)

    def watch(self) -> None:
        """Keep the children running until `stopping` is set (by a signal handler, a test).
        Never gives up on a child: see the module docstring."""
        while not self.stopping.wait(_POLL_SECONDS):
            self.check_children()

    def check_children(self) -> None:
        """One round: restart the children that died (and are due), note finished jobs."""
        now = time.monotonic()
        for child in self._children:
            self._check(child, now)

    def _check(self, child: _Child, now: float) -> None:
        if child.finished:
            return
        if child.restart_at is not None:
            if now >= child.restart_at:
                self._spawn(child)
            return
        assert child.process is not None
        code = child.process.poll()
        if code is None:
            if child.quick_crashes and now - child.started_at >= self.stable_after:
                child.quick_crashes = 0  # it came back for good: no longer crash-looping
            return
        _kill_group(child.process.pid, signal.SIGKILL)  # whatever it forked dies with it
        ran = now - child.started_at
        if not child.spec.restart:
            child.finished = True
            log.log(
                logging.INFO if code == 0 else logging.ERROR, "job finished", child=child.spec.name, code=code
            )
            return
        child.last_exit_code = code
        child.restarts += 1
        child.quick_crashes = 0 if ran >= self.stable_after else child.quick_crashes + 1
        delay = min(2.0 ** (child.quick_crashes - 1), self.max_backoff) if child.quick_crashes else 0.5
        child.restart_at = now + delay
        if child.quick_crashes >= CRASH_LOOP_AFTER:
            log.error("CHILD CRASH-LOOPING: it exits right after each start; still restarting it, the "
                      "others keep running", child=child.spec.name, code=code,
                      quick_crashes=child.quick_crashes, restart_in_seconds=delay)  # fmt: skip
            return
        log.warning("child exited; restarting", child=child.spec.name, code=code, ran_seconds=round(ran, 1),
                    restart_in_seconds=delay)  # fmt: skip

    def stop(self) -> dict[str, int | None]:
        """SIGTERM every child's group, SIGKILL what is left after `stop_timeout`; the exit
        codes by child (None: it had to be killed)."""
        self.stopping.set()
        running = [c for c in self._children if c.process is not None and not c.finished]
        for child in running:
            assert child.process is not None
            _kill_group(child.process.pid, signal.SIGTERM)
        deadline = time.monotonic() + self.stop_timeout
        codes: dict[str, int | None] = {}
        for child in running:
            assert child.process is not None
            try:
                codes[child.spec.name] = child.process.wait(timeout=max(deadline - time.monotonic(), 0.0))
            except subprocess.TimeoutExpired:
                log.warning("child did not stop in time; killing it", child=child.spec.name)
                codes[child.spec.name] = None
            # the leader is gone; members of its group that outlive it are stragglers
            _wait_group_gone(child.process.pid, deadline)
            _kill_group(child.process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.process.wait(timeout=5)
        return codes


def _state_of(child: _Child) -> ChildState:
    pid = child.process.pid if child.process is not None else None
    if child.finished:
        state = "finished"
    elif child.process is None:
        state = "not started"
    elif child.quick_crashes >= CRASH_LOOP_AFTER:
        state = "crash-looping"
    elif child.restart_at is not None:
        state = "restarting"
    else:
        state = "running"
    return ChildState(state, pid, child.restarts, child.last_exit_code)


def _kill_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _wait_group_gone(pgid: int, deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError):
            return
        time.sleep(0.05)
