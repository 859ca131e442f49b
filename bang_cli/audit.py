"""`bang-league audit GAME [--json]`: audit a disputed game by replay.

Mounted in `bang_cli/main.py` as `app.command("audit")(audit.audit)`. The database is found
the standard way (`infra.postgres.resolve_postgres`): `BANG_DATABASE_URL`, else a
testcontainer when Docker answers, else the embedded server in the data dir (`BANG_DATA_DIR`,
default `.bang-data`). Exit codes: 0 clean, 1 not clean, 2 no such game or no database.
"""

from __future__ import annotations

import asyncio
import sys

import asyncpg
import typer
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from event_store import EventStoreError, PostgresEventStore
from infra.postgres import resolve_postgres
from infra.settings import load_settings
from services.game.application.codec import GAME_MAPPER
from services.game.application.errors import GameNotFound
from services.game.audit import AuditReport, audit_game

NOT_CLEAN_EXIT = 1
ERROR_EXIT = 2
"""No such game, or no event store to read it from (as for a usage error)."""


def audit(
    game_id: str = typer.Argument(..., help="The id of the game to audit."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as one JSON object."),
) -> None:
    """Audit a game: hash chain, seed, deal, rolls, rules replay and result. Exit 1 if not clean."""
    settings = load_settings()
    try:
        with resolve_postgres(settings.data_dir, settings) as postgres:
            report = asyncio.run(audit_in(postgres.dsn, game_id))
    except GameNotFound as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(ERROR_EXIT) from None
    except (EventStoreError, OSError, asyncpg.PostgresError) as error:
        typer.echo(f"error: cannot read the event store: {error}", err=True)
        raise typer.Exit(ERROR_EXIT) from None
    if as_json:
        typer.echo(report.to_json().decode())
    else:
        Console(file=sys.stdout).print(render(report))
    if not report.clean:
        raise typer.Exit(NOT_CLEAN_EXIT)


async def audit_in(dsn: str, game_id: str) -> AuditReport:
    """Audit ``game_id`` in the database at ``dsn`` (read only: no migrations are applied)."""
    store = await PostgresEventStore.open(
        dsn, min_size=1, max_size=2, apply_migrations=False, mapper=GAME_MAPPER
    )
    async with store:
        try:
            return await audit_game(store, game_id)
        except asyncpg.UndefinedTableError:
            # a database without the event store's tables holds no games at all
            raise GameNotFound(game_id) from None


def render(report: AuditReport) -> Group:
    table = Table(title=f"audit of game {report.game_id}", show_lines=False)
    table.add_column("check")
    table.add_column("", justify="center")
    table.add_column("finding")
    for check in report.checks:
        mark = Text("ok", style="green") if check.passed else Text("FAIL", style="bold red")
        table.add_row(check.name, mark, check.detail)
    derived = "" if report.derivations is None else f" ({report.derivations})"
    table.caption = (
        f"ruleset {report.ruleset}; {report.events_checked} events checked, "
        f"{_rederived(report)} re-derived from the seed{derived}"
    )
    verdict = Text(report.verdict, style="bold green" if report.clean else "bold red")
    return Group(table, verdict)


def _rederived(report: AuditReport) -> str:
    """What the audit re-derived from the seed: a card game's decks and random picks (as its
    rolls check counts them), a dice game's rolls."""
    if report.ruleset.split()[0] != "cards":
        return f"{report.rolls_checked} rolls"
    found = next((c.detail for c in report.checks if c.name == "rolls" and c.passed), "")
    words = found.partition(" re-derived from the seed")
    return words[0] if words[1] else "no deck and no random pick"
