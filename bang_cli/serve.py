"""Running bang-league: `serve` (everything, embedded by default) and the processes production
runs separately: `api`, `worker`, `consume`, plus `migrate`, `status` and `health`.

The lead mounts these at the top level of `bang-league` (`app.add_typer(serve.app)`), and
`python -m bang_cli.serve …` runs them directly: that is how `serve` starts its children.
Each command imports the runtime modules it needs inside its body, so `bang-league --help` and
the other commands do not pay for importing the API, Celery and the projections.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from bang_cli import api as api_cli
from infra.settings import InfraSettings
from services.api.settings import ApiSettings
from services.runtime.infra import Endpoints, hold_infra
from services.runtime.logging import configure_logging, get_logger
from services.runtime.settings import RuntimeSettings

if TYPE_CHECKING:
    from services.runtime.projections import ProjectionSpec
    from services.runtime.serve import Urls

app = typer.Typer(help="Run bang-league: the whole system, or one of its processes.")
console = Console()
log = get_logger(__name__)


def _runtime() -> RuntimeSettings:
    return RuntimeSettings.from_env()


def _api_defaults() -> ApiSettings:
    return ApiSettings.from_env()


# --- serve ----------------------------------------------------------------------------------


@app.command("serve")
def serve(
    host: str = typer.Option(None, help="API address (env BANG_API_HOST, default 127.0.0.1)."),
    port: int = typer.Option(None, help="API port (env BANG_API_PORT, default 8000)."),
    data_dir: Annotated[
        Path | None, typer.Option(help="Embedded servers' data (env BANG_DATA_DIR, default .bang-data).")
    ] = None,
    demo: bool = typer.Option(False, "--demo", help="Seed a demo season played by bots on first start."),
    worker: bool = typer.Option(True, "--worker/--no-worker", help="Run a Celery worker too."),
) -> None:
    """Start everything: PostgreSQL and Redis (embedded unless BANG_DATABASE_URL / BANG_REDIS_URL
    say otherwise), migrations, the API, every consumer and a worker. Ctrl-C stops it all."""
    from services.runtime.serve import ServeOptions
    from services.runtime.serve import serve as run

    runtime = _runtime()
    api = _api_defaults()
    configure_logging("supervisor", level=runtime.log_level)
    options = ServeOptions(
        host=host or api.server.host,
        port=port or api.server.port,
        data_dir=data_dir or InfraSettings.from_env().data_dir,
        demo=demo,
        worker=worker,
        stop_timeout=runtime.stop_timeout_seconds,
        log_level=runtime.log_level,
    )

    def announce(urls: Urls, endpoints: Endpoints) -> None:
        console.print(announcement(urls, endpoints, demo=demo))
        console.print("Press Ctrl-C to stop.", style="dim")

    raise typer.Exit(run(options, announce))


# --- the separate processes -----------------------------------------------------------------


# The API engineer's command, reused as is: `serve` starts its API child through it.
app.command("api")(api_cli.serve)


@app.command("worker")
def worker(
    concurrency: int = typer.Option(None, help="Worker threads (env BANG_WORKER_CONCURRENCY, default 2)."),
    pool: str = typer.Option("threads", help="Celery pool: threads (metrics see every task), solo, prefork."),
    queues: Annotated[
        list[str] | None, typer.Option("--queue", "-Q", help="Only these queues (default: all).")
    ] = None,
    health_port: int = typer.Option(None, help="Serve /health and /metrics here (env BANG_HEALTH_PORT)."),
) -> None:
    """A Celery worker on the shared app (rebuilds, bot leagues, bulk audits)."""
    from services.worker.process import run_worker

    runtime = _runtime()
    configure_logging("worker", level=runtime.log_level)
    port = runtime.health_port if health_port is None else health_port
    server = _worker_health(port) if port else None
    try:
        run_worker(
            concurrency=concurrency or runtime.worker_concurrency,
            pool=pool,
            log_level=runtime.log_level,
            queues=queues or None,
        )
    finally:
        if server is not None:
            server.close()


def _worker_health(port: int) -> object:
    import redis

    from services.runtime.health import HealthServer

    url = os.environ.get("BANG_REDIS_URL") or ""

    def check() -> tuple[bool, dict[str, object]]:
        # a worker is as healthy as its broker: without it, it cannot get work
        try:
            client = redis.Redis.from_url(url, socket_timeout=2)
            try:
                client.ping()
            finally:
                client.close()
        except (OSError, ValueError, redis.RedisError) as error:
            return False, {"broker": f"unavailable: {type(error).__name__}"}
        return True, {"broker": "ok"}

    return HealthServer(port, check).start()


@app.command("consume")
def consume(
    names: Annotated[list[str] | None, typer.Argument(help="Projection names (see --list).")] = None,
    all_: bool = typer.Option(False, "--all", help="Every registered projection."),
    list_: bool = typer.Option(False, "--list", help="List the registered projections and exit."),
    health_port: int = typer.Option(None, help="Serve /health and /metrics here (env BANG_HEALTH_PORT)."),
) -> None:
    """Run projections (catch-up consumers). Run more copies to fail over: copies of one
    projection take turns on its checkpoint, they never apply an event twice."""
    from services.runtime.projections import registered, select

    registry = registered()
    if list_:
        table = Table("projection", "description")
        for spec in registry.values():
            table.add_row(spec.name, spec.description)
        console.print(table)
        return
    if not all_ and not names:
        raise typer.BadParameter("name at least one projection, or --all (see --list)")
    specs = list(registry.values()) if all_ else select(registry, names)
    runtime = _runtime()
    configure_logging("consumer", level=runtime.log_level)
    port = runtime.health_port if health_port is None else health_port
    asyncio.run(_consume(specs, port))


async def _consume(specs: list[ProjectionSpec], port: int) -> None:
    from services.game.application.codec import GAME_MAPPER
    from services.runtime.consumers import ConsumerHealth, run_consumers
    from services.runtime.context import open_context
    from services.runtime.database import prepare_all
    from services.runtime.health import HealthServer

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    health = ConsumerHealth()
    server = HealthServer(port, health.check).start() if port else None
    try:
        with hold_infra() as endpoints:
            async with open_context(endpoints.dsn, endpoints.redis_url, mapper=GAME_MAPPER) as context:
                await prepare_all(context.pool, specs)
                log.info("consuming", projections=[s.name for s in specs])
                await run_consumers(context, specs, stop, health)
    finally:
        if server is not None:
            server.close()


# --- operating ------------------------------------------------------------------------------


@app.command("migrate")
def migrate() -> None:
    """Bring the database schema up to date (every service, every projection) and exit."""
    from services.game.application.codec import GAME_MAPPER
    from services.runtime.context import open_context
    from services.runtime.database import prepare_all
    from services.runtime.projections import registered

    async def run(endpoints: Endpoints) -> None:
        async with open_context(
            endpoints.dsn, endpoints.redis_url, mapper=GAME_MAPPER, max_connections=2, listen=False
        ) as ctx:
            await prepare_all(ctx.pool, registered().values())

    configure_logging("migrate", level=_runtime().log_level)
    with hold_infra() as endpoints:
        asyncio.run(run(endpoints))
    console.print("schema up to date")


@app.command("status")
def status(as_json: bool = typer.Option(False, "--json", help="One JSON object instead of tables.")) -> None:
    """Projection lag (checkpoint, head, lag), held projections and Celery queue depths."""
    from services.game.application.codec import GAME_MAPPER
    from services.runtime.context import open_context
    from services.runtime.projections import registered
    from services.runtime.status import ProjectionStatus, Status, projection_status, queue_depths
    from services.worker.process import DEFAULT_QUEUE, celery_app, queue_names

    async def gather(endpoints: Endpoints) -> tuple[int, list[ProjectionStatus]]:
        async with open_context(
            endpoints.dsn, endpoints.redis_url, mapper=GAME_MAPPER, max_connections=2, listen=False
        ) as ctx:
            return await projection_status(ctx.pool, list(registered()))

    with hold_infra() as endpoints:
        head, projections = asyncio.run(gather(endpoints))
        try:
            queues = queue_names(celery_app())
        except ModuleNotFoundError:
            queues = [DEFAULT_QUEUE]
        report = Status(head, projections, queue_depths(endpoints.redis_url, queues))
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2))
        return
    table = Table("projection", "checkpoint", "head", "lag", "held", title="Projections")
    for p in report.projections:
        name = p.name if p.registered else f"{p.name} (not registered)"
        held = "" if p.held is None else f"at {p.held.position} ({p.held.event_type}): {p.held.error_class}"
        style = "red" if p.held is not None else None if p.lag == 0 else "yellow"
        table.add_row(name, str(p.checkpoint), str(p.head), str(p.lag), escape(held), style=style)
    console.print(table)
    for p in report.projections:
        if p.held is not None:
            console.print(
                f"{p.name} is HELD at position {p.held.position} ({p.held.stream} version "
                f"{p.held.version}, {p.held.event_type}) after {p.held.attempts} attempts: "
                f"{p.held.error_class}: {p.held.error_message}\n  after a fix: bang-league projections "
                f"retry {p.name}\n  or: bang-league projections skip {p.name} --position {p.held.position}"
                ' --reason "…"',
                style="red",
                markup=False,
                highlight=False,
            )
    queue_table = Table("queue", "waiting", title="Celery queues")
    for q in report.queues:
        queue_table.add_row(q.name, str(q.depth))
    console.print(queue_table)


@app.command("health")
def health(
    url: str = typer.Argument(None, help="A /health URL to probe (API, consumer, worker)."),
    timeout: float = typer.Option(3.0, help="Seconds to wait for an answer."),
) -> None:
    """Exit 0 when healthy, 1 when not: probe URL, or without one check that the configured
    PostgreSQL and Redis answer. Made for container health checks (no curl in the image)."""
    if url:
        from services.runtime.health import probe

        healthy, said = probe(url, timeout)
        typer.echo(said)
        raise typer.Exit(0 if healthy else 1)
    healthy, said = _check_backends(timeout)
    typer.echo(json.dumps(said))
    raise typer.Exit(0 if healthy else 1)


def _check_backends(timeout: float) -> tuple[bool, dict[str, str]]:
    import asyncpg
    import redis

    settings = InfraSettings.from_env()
    checks: dict[str, str] = {}

    async def database() -> None:
        connection = await asyncpg.connect(settings.postgres.url, timeout=timeout)
        try:
            await connection.fetchval("SELECT 1")
        finally:
            await connection.close()

    if settings.postgres.url is None or settings.redis.url is None:
        return False, {"problem": "BANG_DATABASE_URL and BANG_REDIS_URL must be set, or give a URL to probe"}
    try:
        asyncio.run(database())
        checks["database"] = "ok"
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        checks["database"] = f"unavailable: {error}"
    try:
        client = redis.Redis.from_url(settings.redis.url, socket_timeout=timeout)
        try:
            client.ping()
        finally:
            client.close()
        checks["redis"] = "ok"
    except (OSError, ValueError, redis.RedisError) as error:
        checks["redis"] = f"unavailable: {error}"
    return all(v == "ok" for v in checks.values()), checks


def announcement(urls: Urls, endpoints: Endpoints, *, demo: bool) -> Table:
    """What ``serve`` prints once everything answers: every link in full, and the demo's sign-in."""
    from services.league.demo import DEMO_LOGIN, DEMO_PLAYER_LOGINS, demo_pages

    table = Table(title="bang-league is running", show_header=False, title_justify="left")
    table.add_column(no_wrap=True)
    # a link cut short with "…" cannot be followed: a long one folds onto the next line
    table.add_column(overflow="fold")
    table.add_row("API", urls.api)
    table.add_row("GraphQL (GraphiQL)", urls.graphql)
    table.add_row("Dashboard", urls.dashboard)
    for label, url in demo_pages(urls.api) if demo else ():
        table.add_row(f"  {label}", url)
    table.add_row("Swagger UI", urls.swagger)
    table.add_row("Scalar", urls.scalar)
    table.add_row("OpenAPI JSON", urls.openapi)
    if urls.demo_password is not None:
        table.add_row("Demo sign-in", f"login {DEMO_LOGIN}  password {escape(urls.demo_password)}")
        table.add_row(
            "Demo players",
            f"{', '.join(DEMO_PLAYER_LOGINS)}: the same password (a private window each plays a seat)",
        )
    table.add_row("Metrics", urls.metrics)
    table.add_row("Consumers", urls.consumer_health or "-")
    table.add_row("Worker", urls.worker_health or "-")
    table.add_row("Supervisor", urls.supervisor_health or "-")
    table.add_row("PostgreSQL", f"{endpoints.postgres_source}: {endpoints.dsn}")
    table.add_row("Redis", f"{endpoints.redis_source}: {endpoints.redis_url}")
    return table


if __name__ == "__main__":
    app()
