"""Each resolution path that can run on this machine, on real servers."""

from __future__ import annotations

import socket
import tempfile
import threading
import time
from pathlib import Path

import asyncpg
import redis

from infra.docker import docker_engine_answers
from infra.postgres import ResolvedPostgres, database_name, resolve_postgres, with_database
from infra.redis import ResolvedRedis, resolve_redis
from infra.settings import InfraSettings


def test_settings_are_read_from_the_given_environment() -> None:
    settings = InfraSettings.from_env(
        {
            "BANG_DATABASE_URL": "postgresql://u:p@db:5432/bang",
            "BANG_REDIS_URL": "redis://cache:6379/0",
            "BANG_USE_CONTAINERS": "no",
            "BANG_DATA_DIR": "/srv/bang",
        }
    )
    assert settings.postgres.url == "postgresql://u:p@db:5432/bang"
    assert settings.redis.url == "redis://cache:6379/0"
    assert settings.docker.enabled is False
    assert settings.data_dir == Path("/srv/bang")
    assert InfraSettings.from_env({}).docker.enabled is True


def test_environment_urls_are_used_verbatim(
    resolved_postgres: ResolvedPostgres, resolved_redis: ResolvedRedis
) -> None:
    settings = InfraSettings.from_env(
        {"BANG_DATABASE_URL": resolved_postgres.dsn, "BANG_REDIS_URL": resolved_redis.url}
    )
    with resolve_postgres(None, settings) as postgres, resolve_redis(None, settings) as cache:
        assert (postgres.source, postgres.dsn) == ("env", resolved_postgres.dsn)
        assert (cache.source, cache.url) == ("env", resolved_redis.url)
        assert redis.Redis.from_url(cache.url).ping()


def test_docker_probe_answers_no_quickly_without_an_engine(tmp_path: Path) -> None:
    started = time.monotonic()
    assert docker_engine_answers(f"unix://{tmp_path}/docker.sock", timeout=0.5) is False
    with socket.socket() as closed_port:
        closed_port.bind(("127.0.0.1", 0))
        port = closed_port.getsockname()[1]
    assert docker_engine_answers(f"tcp://127.0.0.1:{port}", timeout=0.5) is False
    assert docker_engine_answers("ssh://somewhere", timeout=0.5) is False
    assert time.monotonic() - started < 2


def test_docker_probe_recognises_an_engine_reply(tmp_path: Path) -> None:
    # A fake engine speaking just enough HTTP: the probe must accept only a 200 reply.
    path = tmp_path / "engine.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(path))
        server.listen(1)

        def answer() -> None:
            connection, _ = server.accept()
            with connection:
                connection.recv(1024)
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nOK")

        thread = threading.Thread(target=answer)
        thread.start()
        assert docker_engine_answers(f"unix://{path}", timeout=1.0) is True
        thread.join()


async def test_embedded_servers_start_answer_and_stop() -> None:
    settings = InfraSettings.from_env({"BANG_USE_CONTAINERS": "0"})
    with tempfile.TemporaryDirectory(prefix="bang-infra-") as directory:
        data_dir = Path(directory)
        with resolve_postgres(data_dir, settings) as postgres:
            assert postgres.source == "embedded"
            assert "host=" in postgres.dsn  # a unix socket, no TCP port
            connection = await asyncpg.connect(postgres.dsn)
            try:
                assert await connection.fetchval("SELECT 1") == 1
                await connection.execute("CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)")
            finally:
                await connection.close()
        # A data dir keeps its data across restarts (what `bang-league serve` relies on).
        with resolve_postgres(data_dir, settings) as postgres:
            connection = await asyncpg.connect(postgres.dsn)
            try:
                assert await connection.fetchval("SELECT n FROM kept") == 7
            finally:
                await connection.close()
        with resolve_redis(data_dir, settings) as cache:
            assert cache.source == "embedded"
            assert cache.url.startswith("unix://")
            client = redis.Redis.from_url(cache.url)
            assert client.ping()
            client.set("kept", "yes")
            client.close()
        with resolve_redis(data_dir, settings) as cache:
            client = redis.Redis.from_url(cache.url)
            assert client.get("kept") == b"yes"
            client.close()


def test_two_holders_in_one_process_share_one_embedded_redis(tmp_path: Path) -> None:
    settings = InfraSettings.from_env({"BANG_USE_CONTAINERS": "0"})
    first = resolve_redis(tmp_path, settings)
    second = resolve_redis(tmp_path, settings)
    assert first.url == second.url
    first.close()
    assert redis.Redis.from_url(second.url).ping()  # still up: the second holder keeps it
    second.close()
    socket_path = second.url.removeprefix("unix://")
    assert not Path(socket_path).exists()


def test_with_database_keeps_the_socket_directory() -> None:
    dsn = "postgresql://postgres:@/postgres?host=/tmp/x"
    assert with_database(dsn, "game") == "postgresql://postgres:@/game?host=/tmp/x"
    assert with_database("postgresql://u:p@h:5432/a", "b") == "postgresql://u:p@h:5432/b"


async def test_fresh_databases_are_separate(database_dsn: str, pg_pool: asyncpg.Pool) -> None:
    assert await pg_pool.fetchval("SELECT current_database()") == database_name(database_dsn)
    assert await pg_pool.fetchval("SELECT count(*) FROM pg_tables WHERE schemaname='public'") == 0
