"""`bang-league serve`: the whole system in one process tree, for a laptop or a small club.

Order of things: hold PostgreSQL and Redis (the URLs from the environment, else the embedded
servers in the data dir), bring the schema up to date, start the children (the API, every
registered consumer, a Celery worker, and once the demo seeder), wait until the API answers
`/health`, print where everything is, and supervise until SIGINT/SIGTERM. Then stop the
children (see `Supervisor.stop`) and let go of the embedded servers, which stops them unless
another process (an operator command still running) holds them too.

Only a signal stops serve. A child that crash-loops is restarted every 30 s at most and shown
on serve's own `/health` (the "Supervisor" URL), never a reason to stop the API and the
database under it; an embedded postmaster that dies is started again (`PostmasterWatch`).

The children are the same commands production runs one per container (`bang-league api`,
`worker`, `consume`), told the resolved URLs through the environment: the embedded default and
the distributed deployment differ only in configuration.
"""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
import signal
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from event_store import Mapper
from services.runtime.context import open_context
from services.runtime.database import prepare_all
from services.runtime.health import HealthCheck, HealthServer, probe
from services.runtime.infra import Endpoints, child_environment, hold_infra
from services.runtime.logging import get_logger
from services.runtime.postmaster import PostmasterWatch
from services.runtime.projections import registered
from services.runtime.supervisor import ChildSpec, Supervisor

log = get_logger(__name__)

_API_START_TIMEOUT_SECONDS = 60.0
DEMO_PASSWORD_ENV = "BANG_DEMO_PASSWORD"
"""How serve hands the demo organiser's password, made at each start and printed, to the
seeding child (the environment, never its command line, which anybody on the machine may read)."""


@dataclass(frozen=True, slots=True)
class ServeOptions:
    host: str
    port: int
    data_dir: Path | None
    demo: bool = False
    worker: bool = True
    stop_timeout: float = 10.0
    log_level: str = "INFO"


@dataclass(frozen=True, slots=True)
class Urls:
    api: str
    graphql: str
    dashboard: str
    metrics: str
    consumer_health: str | None
    worker_health: str | None
    supervisor_health: str | None = None
    swagger: str = ""
    scalar: str = ""
    openapi: str = ""
    demo_password: str | None = None
    """With ``--demo``: the organiser's password for this run (services/league/demo.py)."""


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _cli(*args: str) -> list[str]:
    # the same commands production runs, from this very interpreter and checkout
    return [sys.executable, "-m", "bang_cli.serve", *args]


def plan_children(options: ServeOptions, endpoints: Endpoints) -> tuple[list[ChildSpec], Urls]:
    env = {**child_environment(endpoints), "BANG_LOG_LEVEL": options.log_level}
    base = f"http://{_probe_host(options.host)}:{options.port}"
    consumer_port = free_port()
    children = [
        ChildSpec("api", _cli("api", "--host", options.host, "--port", str(options.port)), env),
        ChildSpec("consumers", _cli("consume", "--all", "--health-port", str(consumer_port)), env),
    ]
    worker_url = None
    if options.worker:
        worker_port = free_port()
        children.append(ChildSpec("worker", _cli("worker", "--health-port", str(worker_port)), env))
        worker_url = f"http://127.0.0.1:{worker_port}/health"
    demo_password = None
    if options.demo:
        demo_password = secrets.token_urlsafe(12)
        demo_env = {**env, DEMO_PASSWORD_ENV: demo_password}
        children.append(ChildSpec("demo", _ops_cli("seed-demo", "--if-empty"), demo_env, restart=False))
    urls = Urls(
        api=base,
        graphql=f"{base}/graphql",
        dashboard=f"{base}/",
        metrics=f"{base}/metrics",
        consumer_health=f"http://127.0.0.1:{consumer_port}/health",
        worker_health=worker_url,
        swagger=f"{base}/schema/swagger",
        scalar=f"{base}/schema/scalar",
        openapi=f"{base}/schema/openapi.json",
        demo_password=demo_password,
    )
    return children, urls


def _ops_cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "bang_cli.ops", *args]


def _probe_host(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "::", "") else host


async def _prepare(endpoints: Endpoints) -> None:
    async with open_context(
        endpoints.dsn, endpoints.redis_url, mapper=Mapper(), max_connections=2, listen=False
    ) as context:
        await prepare_all(context.pool, registered().values())


class _Signals:
    """First SIGINT/SIGTERM: stop cleanly. Second: stop now (no grace period)."""

    def __init__(self) -> None:
        self.received = 0
        self.on_signal: Callable[[int], None] = lambda _count: None

    def install(self) -> None:
        signal.signal(signal.SIGINT, self._handle)
        signal.signal(signal.SIGTERM, self._handle)

    def _handle(self, signum: int, _frame: FrameType | None) -> None:
        self.received += 1
        log.info("signal received; stopping", signal=signal.Signals(signum).name, count=self.received)
        self.on_signal(self.received)


def serve(options: ServeOptions, announce: Callable[[Urls, Endpoints], None]) -> int:
    """Run until signalled; the exit status (0 after a clean stop)."""
    signals = _Signals()
    signals.install()  # before the embedded servers start, so a Ctrl-C then still cleans up
    with hold_infra(data_dir=options.data_dir) as endpoints:
        log.info("infrastructure ready", postgres=endpoints.postgres_source, redis=endpoints.redis_source)
        if signals.received:
            return 0
        asyncio.run(_prepare(endpoints))
        children, urls = plan_children(options, endpoints)
        supervisor = Supervisor(children, stop_timeout=options.stop_timeout)
        watch = None
        if endpoints.postgres_source == "embedded":
            watch = PostmasterWatch(endpoints.data_dir / "postgres")

        def on_signal(count: int) -> None:
            supervisor.stopping.set()
            if count > 1:
                supervisor.stop_timeout = 0.0

        signals.on_signal = on_signal
        if signals.received:
            return 0
        health_port = free_port()
        health = HealthServer(health_port, _serve_health(supervisor, watch), host="127.0.0.1")
        urls = dataclasses.replace(urls, supervisor_health=f"http://127.0.0.1:{health_port}/health")
        try:
            if watch is not None:
                watch.start()
            health.start()
            supervisor.start()
            if _wait_for_api(urls.api + "/health", supervisor):
                announce(urls, endpoints)
            supervisor.watch()
        finally:
            if watch is not None:
                watch.stop()  # first: a server being let go of must not be started again
            codes = supervisor.stop()
            health.close()
            log.info("children stopped", exit_codes=codes)
    log.info("stopped")
    return 0


def _serve_health(supervisor: Supervisor, watch: PostmasterWatch | None) -> HealthCheck:
    """serve's own `/health`: each child's state and the embedded database's. 503 while a
    child crash-loops or the database is being restarted; serve keeps running either way."""

    def check() -> tuple[bool, dict[str, Any]]:
        states = supervisor.states()
        details: dict[str, Any] = {"children": {name: asdict(state) for name, state in states.items()}}
        healthy = all(state.healthy for state in states.values())
        if watch is not None:
            database_up, details["database"] = watch.check()
            healthy = healthy and database_up
        if not healthy:
            details["status"] = "degraded"
        return healthy, details

    return check


def _wait_for_api(url: str, supervisor: Supervisor) -> bool:
    deadline = time.monotonic() + _API_START_TIMEOUT_SECONDS
    while time.monotonic() < deadline and not supervisor.stopping.is_set():
        healthy, _ = probe(url, timeout=1.0)
        if healthy:
            return True
        supervisor.check_children()
        time.sleep(0.2)
    if not supervisor.stopping.is_set():
        log.warning("the API did not become healthy in time; still supervising", url=url)
    return False
