"""The migrator: SQL files applied in order, once, by one migrator at a time."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest

from event_store import MigrationError, migrate
from event_store.migrator import bundled_migrations, load_migrations


async def test_migrations_apply_once_even_when_migrators_race(database_dsn: str) -> None:
    connections = [await asyncpg.connect(database_dsn) for _ in range(3)]
    try:
        applied = await asyncio.gather(*(migrate(c) for c in connections))
        assert sorted(map(len, applied)) == [0, 0, len(bundled_migrations())]
        assert await migrate(connections[0]) == []
        rows = await connections[0].fetch("SELECT number, name FROM schema_migrations ORDER BY number")
        assert [(r["number"], r["name"]) for r in rows] == [(m.number, m.name) for m in bundled_migrations()]
        assert rows[0]["name"] == "event_store"
    finally:
        for connection in connections:
            await connection.close()


async def test_an_applied_migration_that_was_edited_is_an_error(
    pg_pool: asyncpg.Pool, tmp_path: Path
) -> None:
    (tmp_path / "0001_first.sql").write_text("CREATE TABLE first (n int);")
    async with pg_pool.acquire() as connection:
        assert await migrate(connection, load_migrations(tmp_path)) == ["0001_first"]
        (tmp_path / "0001_first.sql").write_text("CREATE TABLE first (n bigint);")
        with pytest.raises(MigrationError, match="edited after it was applied"):
            await migrate(connection, load_migrations(tmp_path))


async def test_a_failing_migration_is_rolled_back_and_reported(pg_pool: asyncpg.Pool, tmp_path: Path) -> None:
    (tmp_path / "0001_ok.sql").write_text("CREATE TABLE ok (n int);")
    (tmp_path / "0002_broken.sql").write_text("CREATE TABLE half (n int); SELECT 1/0;")
    async with pg_pool.acquire() as connection:
        with pytest.raises(MigrationError, match="0002_broken failed"):
            await migrate(connection, load_migrations(tmp_path))
        assert await connection.fetchval("SELECT to_regclass('half')") is None
        assert await connection.fetchval("SELECT count(*) FROM schema_migrations") == 1


def test_numbering_gaps_are_refused(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("")
    (tmp_path / "0003_c.sql").write_text("")
    with pytest.raises(MigrationError, match="without gaps"):
        load_migrations(tmp_path)
