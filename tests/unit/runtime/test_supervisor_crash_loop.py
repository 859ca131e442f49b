"""A child that crash-loops never makes the supervisor give up: it keeps restarting it (with a
capped back-off), reports it as crash-looping, and leaves the other children alone."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from services.runtime.supervisor import CRASH_LOOP_AFTER, ChildSpec, Supervisor


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_a_crash_looping_child_is_reported_and_still_restarted_while_the_others_run() -> None:
    supervisor = Supervisor(
        [
            ChildSpec("api", _python("import time; time.sleep(120)")),
            ChildSpec("consumers", _python("raise SystemExit(3)")),
        ],
        stop_timeout=2,
        max_backoff=0.2,  # the real cap is 30 s; a test cannot wait that long per restart
    )
    api_pid = None
    watcher_error: list[BaseException] = []

    def watch() -> None:
        try:
            supervisor.watch()
        except BaseException as error:  # the old supervisor raised CrashLoop here
            watcher_error.append(error)

    supervisor.start()
    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    try:
        api_pid = supervisor.pids["api"]
        deadline = time.monotonic() + 60  # generous: each restart is a Python start-up
        while supervisor.states()["consumers"].restarts < CRASH_LOOP_AFTER + 3:
            assert time.monotonic() < deadline, supervisor.states()
            assert thread.is_alive(), watcher_error
            time.sleep(0.05)
        states = supervisor.states()
        assert states["consumers"].state == "crash-looping"
        assert not states["consumers"].healthy
        assert states["consumers"].last_exit_code == 3
        assert states["api"].state == "running" and states["api"].healthy
        assert supervisor.pids["api"] == api_pid  # untouched by its sibling's crashes
        assert thread.is_alive() and not watcher_error
    finally:
        supervisor.stopping.set()
        thread.join(timeout=10)
        codes = supervisor.stop()
    assert codes["api"] == -15


def test_a_child_that_comes_back_for_good_is_no_longer_crash_looping(tmp_path: Path) -> None:
    marker = tmp_path / "fixed"
    # exits at once until the marker exists (its cause was fixed), then keeps running
    code = f"import pathlib, sys, time\nif not pathlib.Path({str(marker)!r}).exists(): sys.exit(1)\n"
    code += "time.sleep(120)"
    supervisor = Supervisor([ChildSpec("worker", _python(code))], stop_timeout=2, max_backoff=0.2,
                            stable_after=1.0)  # fmt: skip
    supervisor.start()
    try:
        deadline = time.monotonic() + 60
        while supervisor.states()["worker"].state != "crash-looping":
            assert time.monotonic() < deadline, supervisor.states()
            supervisor.check_children()
            time.sleep(0.05)
        marker.touch()
        while supervisor.states()["worker"].state != "running":
            assert time.monotonic() < deadline, supervisor.states()
            supervisor.check_children()
            time.sleep(0.05)
        assert supervisor.states()["worker"].healthy
    finally:
        supervisor.stop()
