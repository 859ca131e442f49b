"""Operator commands: seed a demo, move games and leagues in and out, audit everything,
rebuild a projection, back up and restore the database. See docs/operations.md.

Each command finds PostgreSQL and Redis the way the server does (`BANG_DATABASE_URL` /
`BANG_REDIS_URL`, else the embedded servers in `BANG_DATA_DIR`); run next to a live
`bang-league serve`, it shares that server's embedded PostgreSQL and Redis. Mounted at the top
level of `bang-league` (`app.add_typer(ops.app)`); `python -m bang_cli.ops …` works too.
Commands import the services they use in their bodies, so that the CLI starts fast.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from services.game.application.codec import GAME_MAPPER
from services.runtime.context import RuntimeContext, open_context
from services.runtime.infra import Endpoints, hold_infra

app = typer.Typer(help="Operate bang-league: demo data, imports and exports, audits, rebuilds, backups.")
console = Console(stderr=True)
T = TypeVar("T")

OPERATOR = "operator"
"""The organiser name operator commands act as (imports) and read as (exports)."""


def _progress() -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    )


def _run(work: Callable[[RuntimeContext, Endpoints], Awaitable[T]], *, prepare: bool = True) -> T:
    async def main(endpoints: Endpoints) -> T:
        async with open_context(
            endpoints.dsn, endpoints.redis_url, mapper=GAME_MAPPER, max_connections=4, listen=False
        ) as context:
            if prepare:
                from services.runtime.database import prepare_all
                from services.runtime.projections import registered

                await prepare_all(context.pool, registered().values())
            return await work(context, endpoints)

    with hold_infra() as endpoints:
        return asyncio.run(main(endpoints))


def _fail(message: str, code: int = 1) -> typer.Exit:
    console.print(f"[red]{message}[/red]")
    return typer.Exit(code)


# --- demo -----------------------------------------------------------------------------------


@app.command("seed-demo")
def seed_demo(
    players: int = typer.Option(10, min=3, help="Bots enrolled in the demo season."),
    rounds: int = typer.Option(3, min=1, help="Rounds played."),
    if_empty: bool = typer.Option(False, "--if-empty", help="Do nothing when the demo league exists."),
) -> None:
    """A demo club (an organiser account, members with names) and its league, whose season is
    played by bots (idempotent: re-running finishes it). The organiser's password is
    ``BANG_DEMO_PASSWORD`` when set (``serve --demo`` sets it), else a new one, printed."""
    from services.accounts.service import AccountService
    from services.accounts.settings import AccountSettings
    from services.league.demo import (
        DEMO_LEAGUE,
        DEMO_LOGIN,
        PASSWORD_ENV,
        demo_exists,
        ensure_organiser,
        new_password,
    )
    from services.league.demo import seed_demo as seed

    password = os.environ.get(PASSWORD_ENV) or new_password()

    async def work(context: RuntimeContext, _: Endpoints) -> None:
        if if_empty and await demo_exists(context):
            accounts = AccountService(context.pool, AccountSettings.from_env())
            await ensure_organiser(context, accounts, password)
            console.print(f"demo league {DEMO_LEAGUE!r} exists; the organiser's password is set anew")
            return
        with _progress() as progress:
            task = progress.add_task("demo season", total=rounds + 3)

            def advance(message: str) -> None:
                progress.update(task, advance=1, description=message)

            report = await seed(context, players=players, rounds=rounds, progress=advance, password=password)
        console.print(
            f"demo league {DEMO_LEAGUE!r}: {report.rounds} rounds, {report.games} games; "
            f"card league: {report.card_games} games"
        )
        if PASSWORD_ENV not in os.environ:  # serve printed it already
            console.print(f"sign in as {DEMO_LOGIN!r} with password {password!r}")

    _run(work)


# --- game records ---------------------------------------------------------------------------


def _gateway(context: RuntimeContext) -> Any:
    """The API's game gateway on this process's store, so an import is created and played
    exactly as the API would do it and an export follows the API's redaction rule.

    Its fan-out is never started: a one-shot command has no live viewers, and API processes
    notice the new events by polling the store (every few seconds) instead of by a Redis ring.
    """
    import redis.asyncio as aioredis

    from infra.postgres import database_name
    from services.game.application.service import GameService
    from services.game.edge.fanout import GameFanout, fanout_channel
    from services.game.edge.gateway import GameGateway
    from services.game.edge.tokens import TokenVault
    from services.game.fairness.vault import SeedVault

    fanout = GameFanout(aioredis.from_url(context.redis_url), fanout_channel(database_name(context.dsn)))
    from services.league.schedule_guard import ScheduleGuard

    service = GameService(context.store, SeedVault(context.pool))
    schedule = ScheduleGuard(context.pool)  # an import claims a league table only as scheduled
    return GameGateway(service, TokenVault(context.pool), fanout, context.store, schedule=schedule)


def _operator() -> Any:
    from services.game.edge.tokens import Principal, TokenKind

    return Principal(kind=TokenKind.ORGANISER, subject=OPERATOR)


@app.command("import")
def import_record(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="A game record (JSON).")],
    game_id: str = typer.Option(None, help="Game id (default: the record's meta.game_id, else derived)."),
) -> None:
    """Import a table game (dice or cards) from its record, input by input through the game
    service; bounded as the API's import is (docs/game-records.md, 'Bounds')."""
    from services.game.records.dispatch import read_any_record
    from services.game.records.errors import RecordError
    from services.game.records.limits import check_bytes, record_bytes

    try:
        decoded = json.loads(file.read_text(encoding="utf-8"))
        check_bytes(record_bytes(decoded))
        record = read_any_record(decoded)
    except (RecordError, ValueError) as error:
        raise _fail(f"{file}: {error}") from None

    async def work(context: RuntimeContext, _: Endpoints) -> Any:
        return await _gateway(context).import_record(
            _operator(), record, None, command_id=f"import/{file.name}/{game_id or ''}", game_id=game_id
        )

    try:
        imported = _run(work)
    except RecordError as error:
        raise _fail(f"{file}: {error}") from None
    console.print(f"imported game {imported.game_id}: {imported.inputs} inputs, version {imported.version}")


@app.command("export")
def export_record(
    game_id: str = typer.Argument(..., help="The game to export."),
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write here instead of stdout.")] = None,
) -> None:
    """Export a game's record. Refused while any role is still hidden (an online game in play)."""
    from services.game.application.errors import GameServiceError
    from services.game.records import read_record, write_record

    async def work(context: RuntimeContext, _: Endpoints) -> dict[str, Any]:
        return await _gateway(context).export_record(_operator(), game_id)  # type: ignore[no-any-return]

    try:
        record = _run(work)
    except GameServiceError as error:
        raise _fail(str(error)) from None
    text = write_record(read_record(record))
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        console.print(f"wrote {out}")


# --- leagues --------------------------------------------------------------------------------


@app.command("export-league")
def export_league(
    league_id: Annotated[str, typer.Argument(help="The league to export.")],
    out: Annotated[Path, typer.Argument(dir_okay=False, help="JSON lines file to write.")],
    with_seeds: bool = typer.Option(
        False,
        "--with-seeds",
        help="Operator backup, CONTAINS SECRETS: games in progress whole (hidden roles), their dice seeds.",
    ),
) -> None:
    """A league's events (league, club, every game) as JSON lines, as anonymous viewers may see
    them: a game with a role still hidden is left out and named on a `withheld` line."""
    from services.league.transfer import export_league as export

    async def work(context: RuntimeContext, _: Endpoints) -> Any:
        with _progress() as progress:
            task = progress.add_task(f"exporting {league_id}", total=None)
            return await export(
                context.pool,
                league_id,
                out,
                with_seeds=with_seeds,
                progress=lambda n: progress.advance(task, n),
            )

    try:
        report = _run(work)
    except LookupError as error:
        raise _fail(str(error)) from None
    console.print(
        f"{report.streams} streams, {report.events} events, {report.seeds} seeds, "
        f"{report.withheld} games withheld (roles hidden) → {out}"
    )


@app.command("import-league")
def import_league(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="A file from export-league.")],
) -> None:
    """Re-append an exported league's events by event id: importing twice changes nothing."""
    from services.league.transfer import import_league as load
    from services.league.transfer import read_lines

    lines = list(read_lines(file))

    async def work(context: RuntimeContext, _: Endpoints) -> Any:
        with _progress() as progress:
            task = progress.add_task(
                f"importing {file.name}", total=sum(1 for line in lines if "stream" in line)
            )
            return await load(context.store, lines, progress=lambda n: progress.advance(task, n))

    report = _run(work)
    console.print(
        f"{report.streams} streams, {report.events} events ({report.appended} new), {report.seeds} seeds, "
        f"{report.withheld} games withheld by the export"
    )


# --- audits and projections -----------------------------------------------------------------


@app.command("audit-all")
def audit_all(as_json: bool = typer.Option(False, "--json", help="One JSON line per game.")) -> None:
    """Audit every game (see `bang-league audit GAME`); exit 1 if any is not clean."""
    from services.game.application.codec import game_id_of
    from services.game.audit import audit_game

    async def work(context: RuntimeContext, _: Endpoints) -> list[Any]:
        names = [
            r[0]
            for r in await context.pool.fetch(
                "SELECT name FROM streams WHERE category = 'game' ORDER BY name"
            )
        ]
        reports = []
        with _progress() as progress:
            task = progress.add_task("auditing games", total=len(names))
            for name in names:
                reports.append(await audit_game(context.store, game_id_of(name)))
                progress.advance(task)
        return reports

    reports = _run(work)
    dirty = [r for r in reports if not r.clean]
    if as_json:
        for report in reports:
            typer.echo(report.to_json().decode())
    else:
        console.print(f"{len(reports)} games audited, {len(dirty)} not clean")
        if dirty:
            table = Table("game", "verdict")
            for report in dirty:
                table.add_row(report.game_id, report.verdict, style="red")
            console.print(table)
    raise typer.Exit(1 if dirty else 0)


@app.command("rebuild")
def rebuild(
    name: str = typer.Argument(..., help="The projection (see `bang-league consume --list`)."),
) -> None:
    """Drop a projection's read model and checkpoint, then replay every event into it."""
    from services.runtime.projections import UnknownProjection, registered, select
    from services.runtime.rebuild import rebuild as replay

    try:
        (spec,) = select(registered(), [name])
    except UnknownProjection as error:
        raise _fail(str(error)) from None

    async def work(context: RuntimeContext, _: Endpoints) -> int:
        with _progress() as progress:
            task = progress.add_task(f"rebuilding {name}", total=await context.store.head_position() or None)
            return await replay(
                context,
                spec,
                progress=lambda position, head: progress.update(task, completed=position, total=head),
            )

    handled = _run(work)
    console.print(f"{name}: rebuilt from {handled} events")


# --- backups --------------------------------------------------------------------------------


@app.command("backup")
def backup(file: Annotated[Path, typer.Argument(dir_okay=False, help="Where to write the dump.")]) -> None:
    """The whole database to FILE (pg_dump, custom format)."""
    from services.runtime.backup import backup as dump

    with hold_infra() as endpoints, console.status("pg_dump …"):
        dump(endpoints.dsn, file)
    console.print(f"backed up to {file} ({file.stat().st_size} bytes)")


@app.command("restore")
def restore(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="A dump made by `backup`.")],
    yes: bool = typer.Option(False, "--yes", help="Do not ask: the database's current content is replaced."),
) -> None:
    """Replace the database's content with FILE's (pg_restore, one transaction). Stop the
    API, workers and consumers first: they would keep writing to what is being replaced."""
    from services.runtime.backup import restore as load

    if not yes:
        typer.confirm("This replaces everything in the database. Go on?", abort=True)
    with hold_infra() as endpoints, console.status("pg_restore …"):
        load(endpoints.dsn, file)
    console.print(f"restored from {file}")


if __name__ == "__main__":
    app()
