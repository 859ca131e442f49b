"""The embedded PostgreSQL on a machine that never ran it, and on data dirs left behind:
the system user is made once however many processes race for it, and a stale data dir is
repaired or set aside with a clear message; each case on a real embedded server."""

from __future__ import annotations

import logging
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from infra.pgdata import DISPOSABLE_MARKER, PGSERVER_USER, DataDirUnusable, ensure_system_user, prepare_pgdata
from infra.postgres import resolve_postgres
from infra.run_dir import hold_run_dir, release_run_dir, sweep_abandoned
from infra.settings import InfraSettings

REPO = Path(__file__).resolve().parents[3]
EMBEDDED = InfraSettings.from_env({"BANG_USE_CONTAINERS": "0"})
VANISHED_UID = 54321
"""A uid with no user: what a data dir is owned by after its user went away."""

_RACER = """
import os, sys, time
from pathlib import Path
from infra.pgdata import ensure_system_user
name, lock, go, euid = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4])
if euid != os.geteuid():
    os.seteuid(euid)
while not go.exists():
    time.sleep(0.005)
print(ensure_system_user(name, lock_path=lock))
"""


def _race_for_a_user(name: str, directory: Path, processes: int, euid: int | None = None) -> list[str]:
    """Start `processes` interpreters, release them at once, each making sure `name` exists
    (running as effective user `euid` if given)."""
    go = directory / "go"
    arguments = [name, str(directory / "user.lock"), str(go), str(euid or os.geteuid())]
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", _RACER, *arguments],
            cwd=REPO,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(processes)
    ]
    time.sleep(1.0)  # let every interpreter reach its starting line
    go.touch()
    answers = []
    for racer in racers:
        out, _ = racer.communicate(timeout=60)
        assert racer.returncode == 0
        answers.append(out.strip())
    return answers


def _uid_of(name: str) -> int | None:
    try:
        return pwd.getpwnam(name).pw_uid
    except KeyError:
        return None


def test_the_system_user_is_made_once_when_processes_race_for_it() -> None:
    name = f"bangt{uuid.uuid4().hex[:8]}"
    with tempfile.TemporaryDirectory(prefix="bang-user-") as directory:
        os.chmod(directory, 0o777)  # the unprivileged racers below write their lock here
        if os.geteuid() != 0:
            # not root: PostgreSQL runs as us, nobody creates any user
            assert set(_race_for_a_user(name, Path(directory), 4)) == {"None"}
            assert _uid_of(name) is None
            return
        try:
            answers = _race_for_a_user(name, Path(directory), 8)
            uid = _uid_of(name)
            assert uid is not None
            # every process was told the uid that stayed, and it maps back to the name
            # (initdb looks its effective uid up: "could not look up effective user ID")
            assert answers == [str(uid)] * 8
            assert pwd.getpwuid(uid).pw_name == name
            assert ensure_system_user(name, lock_path=Path(directory) / "user.lock") == uid
        finally:
            subprocess.run(["userdel", name], check=False, capture_output=True)
        # and the unprivileged path: a process that is not root creates nobody
        other = f"bangt{uuid.uuid4().hex[:8]}"
        nobody = pwd.getpwnam("nobody").pw_uid
        assert _race_for_a_user(other, Path(directory), 2, euid=nobody) == ["None", "None"]
        assert _uid_of(other) is None


@pytest.fixture
def data_dir() -> Iterator[Path]:
    directory = Path(tempfile.mkdtemp(prefix="bang-pgdata-"))
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


async def _write_a_row(data_dir: Path) -> dict[str, str]:
    """Start the embedded server on `data_dir`, leave a row in it, stop it; its postmaster.pid."""
    with resolve_postgres(data_dir, EMBEDDED) as postgres:
        connection = await asyncpg.connect(postgres.dsn)
        try:
            await connection.execute("CREATE TABLE kept (x int); INSERT INTO kept VALUES (42)")
        finally:
            await connection.close()
        pidfile = (data_dir / "postgres" / "postmaster.pid").read_text()
    assert not (data_dir / "postgres" / "postmaster.pid").exists()  # stopped
    return {"postmaster.pid": pidfile}


async def _rows_after_restart(data_dir: Path) -> list[int] | None:
    """Start the server again; the kept rows, or None when the cluster is a new one."""
    with resolve_postgres(data_dir, EMBEDDED) as postgres:
        connection = await asyncpg.connect(postgres.dsn, timeout=10)
        try:
            if not await connection.fetchval("SELECT to_regclass('kept') IS NOT NULL"):
                return None
            return [r["x"] for r in await connection.fetch("SELECT x FROM kept")]
        finally:
            await connection.close()


def _server_uid() -> int:
    return _uid_of(PGSERVER_USER) if os.geteuid() == 0 else os.geteuid()  # type: ignore[return-value]


def _chown_tree(path: Path, uid: int) -> None:
    for root, dirs, files in os.walk(path):
        os.chown(root, uid, uid)
        for entry in (*dirs, *files):
            os.chown(os.path.join(root, entry), uid, uid, follow_symlinks=False)


async def test_a_data_dir_owned_by_a_vanished_user_is_given_back_keeping_its_data(
    data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    await _write_a_row(data_dir)
    pgdata = data_dir / "postgres"
    if os.geteuid() != 0:
        # nobody may chown here: the start is refused, saying what to do, and nothing changes
        with pytest.raises(DataDirUnusable, match="chown -R"):
            prepare_pgdata(pgdata, server_uid=os.geteuid() + 1)
        assert await _rows_after_restart(data_dir) == [42]
        return
    _chown_tree(pgdata, VANISHED_UID)
    with caplog.at_level(logging.WARNING, logger="infra.pgdata"):
        assert await _rows_after_restart(data_dir) == [42]
    assert f"belonged to uid {VANISHED_UID}, which no longer exists" in caplog.text
    assert "data kept" in caplog.text
    owners = {p.stat().st_uid for p in [pgdata, *pgdata.rglob("*")] if not p.is_socket()}
    assert owners == {_server_uid()}


async def test_a_disposable_data_dir_owned_by_a_vanished_user_is_replaced(
    data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    await _write_a_row(data_dir)
    (data_dir / DISPOSABLE_MARKER).touch()
    pgdata = data_dir / "postgres"
    if os.geteuid() == 0:
        _chown_tree(pgdata, VANISHED_UID)
    else:
        (pgdata / "global" / "pg_control").unlink()  # what a non-root run can break: replaced too
    with caplog.at_level(logging.WARNING, logger="infra.pgdata"):
        assert await _rows_after_restart(data_dir) is None
    assert "disposable (test) data dir" in caplog.text
    assert not list(data_dir.glob("postgres.broken-*"))


async def test_a_stale_postmaster_pid_naming_a_live_process_is_removed(
    data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    left = await _write_a_row(data_dir)
    # after a reboot or in a new container the old pid belongs to some other process
    with subprocess.Popen(["sleep", "120"]) as other:
        try:
            lines = left["postmaster.pid"].splitlines()
            lines[0] = str(other.pid)
            pidfile = data_dir / "postgres" / "postmaster.pid"
            pidfile.write_text("\n".join(lines) + "\n")
            with caplog.at_level(logging.WARNING, logger="infra.pgdata"):
                assert await _rows_after_restart(data_dir) == [42]
            assert f"named pid {other.pid}, which is not this data dir's server: removed" in caplog.text
            assert other.poll() is None  # the other process was left alone
        finally:
            other.kill()


def _half_written_cluster(pgdata: Path) -> None:
    """What an initdb killed before bootstrapping leaves: PG_VERSION and empty directories."""
    pgdata.mkdir(mode=0o700)
    (pgdata / "PG_VERSION").write_text("18\n")
    for sub in ("base", "global", "pg_wal"):
        (pgdata / sub).mkdir()


async def test_a_half_written_cluster_is_moved_aside_and_a_new_one_made(
    data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _half_written_cluster(data_dir / "postgres")
    with caplog.at_level(logging.WARNING, logger="infra.pgdata"):
        assert await _rows_after_restart(data_dir) is None
    aside = list(data_dir.glob("postgres.broken-*"))
    assert len(aside) == 1 and (aside[0] / "PG_VERSION").read_text() == "18\n"
    assert f"moved aside to {aside[0]} (nothing deleted)" in caplog.text


async def test_a_half_written_disposable_cluster_is_replaced(data_dir: Path) -> None:
    (data_dir / DISPOSABLE_MARKER).touch()
    _half_written_cluster(data_dir / "postgres")
    assert await _rows_after_restart(data_dir) is None
    assert not list(data_dir.glob("postgres.broken-*"))


def test_a_run_dir_is_removed_by_its_last_live_holder(tmp_path: Path) -> None:
    path = tmp_path / "run"
    # a worker that took the dir and died without letting go does not keep it alive
    code = "import sys, pathlib, infra.run_dir as r; r.hold_run_dir(pathlib.Path(sys.argv[1]))"
    subprocess.run([sys.executable, "-c", code, str(path)], cwd=REPO, check=True)
    hold_run_dir(path)
    assert (path / DISPOSABLE_MARKER).exists()
    with subprocess.Popen(["sleep", "120"]) as other:
        try:
            # a live holder keeps it
            (path / "holders").write_text(f"{other.pid}\n{os.getpid()}\n")
            assert release_run_dir(path) is False
            assert path.exists()
            assert (path / "holders").read_text() == f"{other.pid}\n"
        finally:
            other.kill()
    other.wait()
    hold_run_dir(path)
    assert release_run_dir(path) is True
    assert not path.exists() and not (tmp_path / "run.lock").exists()


def test_run_dirs_a_killed_run_left_are_swept_with_their_servers(tmp_path: Path) -> None:
    ours, abandoned, busy, foreign = (tmp_path / f"tests-{n}" for n in ("ours", "gone", "busy", "else"))
    dead = subprocess.run(["sh", "-c", "echo $$"], capture_output=True, text=True)
    for directory, holder in ((abandoned, dead.stdout.strip()), (busy, str(os.getpid()))):
        (directory / "postgres").mkdir(parents=True)
        (directory / "holders").write_text(f"{holder}\n")
    foreign.mkdir()  # no holders file: not a run dir of ours
    # a server the killed run left running, named by its data dir
    server = "import time; time.sleep(120)"
    with subprocess.Popen([sys.executable, "-c", server, str(abandoned / "postgres")]) as left:
        try:
            assert sweep_abandoned(ours) == [abandoned]
            assert left.wait(timeout=20) is not None  # stopped
        finally:
            left.kill()
    assert not abandoned.exists() and busy.exists() and foreign.exists()
