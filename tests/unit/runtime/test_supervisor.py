"""The supervisor: children in their own process groups, restarted when they die, stopped with
SIGTERM then SIGKILL, grandchildren included."""

from __future__ import annotations

import os
import sys
import time

import psutil

from services.runtime.supervisor import ChildSpec, Supervisor

STUBBORN = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)"
WITH_GRANDCHILD = (
    "import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']);"
    " time.sleep(60)"
)


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_children_run_in_their_own_process_group() -> None:
    supervisor = Supervisor([ChildSpec("sleeper", _python("import time; time.sleep(60)"))], stop_timeout=5)
    supervisor.start()
    try:
        pid = supervisor.pids["sleeper"]
        assert os.getpgid(pid) == pid != os.getpgid(0)
    finally:
        codes = supervisor.stop()
    assert codes["sleeper"] == -15  # SIGTERM was enough
    assert _gone(pid)


def test_a_child_ignoring_sigterm_is_killed_after_the_timeout_with_its_children() -> None:
    supervisor = Supervisor(
        [ChildSpec("stubborn", _python(STUBBORN)), ChildSpec("parent", _python(WITH_GRANDCHILD))],
        stop_timeout=1,
    )
    supervisor.start()
    time.sleep(0.5)  # let the grandchild start
    parent = psutil.Process(supervisor.pids["parent"])
    family = [supervisor.pids["stubborn"], parent.pid, *(c.pid for c in parent.children(recursive=True))]
    assert len(family) == 3
    started = time.monotonic()
    codes = supervisor.stop()
    assert time.monotonic() - started < 5
    assert codes["stubborn"] is None  # had to be killed
    time.sleep(0.2)
    assert all(_gone(pid) for pid in family)


def test_a_dead_child_is_restarted_and_a_one_shot_job_is_not() -> None:
    supervisor = Supervisor(
        [
            ChildSpec("flaky", _python("raise SystemExit(3)")),
            ChildSpec("job", _python("pass"), restart=False),
        ],
        stop_timeout=1,
    )
    supervisor.start()
    first = supervisor.pids["flaky"]
    job = supervisor.pids["job"]
    deadline = time.monotonic() + 5
    while supervisor.pids["flaky"] == first and time.monotonic() < deadline:
        supervisor.check_children()
        time.sleep(0.05)
    assert supervisor.pids["flaky"] != first
    assert supervisor.pids["job"] == job
    supervisor.stop()
