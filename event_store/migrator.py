"""Apply the SQL files in `event_store/migrations/` in order, once each.

Plain SQL, no ORM. Each file runs in its own transaction and is recorded in
`schema_migrations` under its component (the event store's are `event_store`; a service
keeps its own numbered files, e.g. the game service's seed vault, as component `game`)
with a checksum, so an applied file that was edited later is an error
instead of a silent drift. A session advisory lock makes concurrent migrators (two server
processes, two test workers) take turns; the second finds nothing left to do.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import asyncpg

from event_store.errors import MigrationError

MIGRATION_LOCK_KEY = 1650552424  # 'bang' + 1; the position lock is 'bang'
_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    number: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()


def bundled_migrations() -> list[Migration]:
    """The migrations shipped with the package, ordered by number."""
    folder = resources.files("event_store") / "migrations"
    return load_migrations(Path(str(folder)))


def load_migrations(folder: Path) -> list[Migration]:
    migrations = []
    for path in sorted(folder.iterdir()):
        match = _FILE_NAME.match(path.name)
        if match is None:
            continue
        migrations.append(Migration(int(match[1]), match[2], path.read_text()))
    numbers = [m.number for m in migrations]
    if numbers != list(range(1, len(numbers) + 1)):
        raise MigrationError(f"migration numbers must run 1, 2, 3, … without gaps: {numbers}")
    return migrations


async def migrate(
    connection: asyncpg.Connection,
    migrations: list[Migration] | None = None,
    *,
    component: str = "event_store",
) -> list[str]:
    """Bring `component`'s tables up to date; return the names of the migrations applied now."""
    migrations = bundled_migrations() if migrations is None else migrations
    await connection.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK_KEY)
    try:
        await connection.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                component   text NOT NULL,
                number      integer NOT NULL,
                name        text NOT NULL,
                checksum    text NOT NULL,
                applied_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
                PRIMARY KEY (component, number)
            )
            """
        )
        applied = {
            row["number"]: row
            for row in await connection.fetch(
                "SELECT number, name, checksum FROM schema_migrations WHERE component = $1",
                component,
            )
        }
        done: list[str] = []
        for migration in migrations:
            row = applied.get(migration.number)
            if row is not None:
                if row["checksum"] != migration.checksum:
                    raise MigrationError(
                        f"migration {migration.number:04d}_{migration.name} was edited after "
                        "it was applied; add a new migration instead"
                    )
                continue
            try:
                async with connection.transaction():
                    await connection.execute(migration.sql)
                    await connection.execute(
                        "INSERT INTO schema_migrations (component, number, name, checksum)"
                        " VALUES ($1, $2, $3, $4)",
                        component,
                        migration.number,
                        migration.name,
                        migration.checksum,
                    )
            except asyncpg.PostgresError as error:
                raise MigrationError(
                    f"migration {migration.number:04d}_{migration.name} failed: {error}"
                ) from error
            done.append(f"{migration.number:04d}_{migration.name}")
        return done
    finally:
        await connection.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK_KEY)


async def migrate_component(pool: asyncpg.Pool, folder: Path, component: str) -> None:
    """The event store's schema, then a service's own numbered files from `folder` under
    `component` (what each service's `prepare_database` does); idempotent."""
    async with pool.acquire() as connection:
        await migrate(connection)
        await migrate(connection, load_migrations(folder), component=component)
