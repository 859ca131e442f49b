"""`bang-league projections`: see and resolve projections held at an event they could not
apply (see docs/operations.md, "When a projection cannot apply an event").

    bang-league projections holds [NAME]                         open holds and recent history
    bang-league projections retry NAME                           after a fix: try the event again
    bang-league projections skip NAME --position P --reason "…"  skip exactly that one event

A running consumer notices a resolution at its next poll (about a second): no restart.
Mounted as a sub-app of `bang-league`; `python -m bang_cli.projections …` works too.
"""

from __future__ import annotations

import asyncio
import getpass
import json
from collections.abc import Awaitable, Callable
from typing import Annotated, TypeVar

import asyncpg
import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from services.game.application.codec import GAME_MAPPER
from services.runtime.context import open_context
from services.runtime.infra import hold_infra

app = typer.Typer(help="Projections held at an event they could not apply: list, retry, skip.")
console = Console(stderr=True)
T = TypeVar("T")


def _operator() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no passwd entry for this uid (a container)
        return "operator"


def _run(work: Callable[[asyncpg.Pool], Awaitable[T]]) -> T:
    async def main(dsn: str, redis_url: str) -> T:
        from event_store import migrate

        async with open_context(
            dsn, redis_url, mapper=GAME_MAPPER, max_connections=2, listen=False
        ) as context:
            async with context.pool.acquire() as connection:
                await migrate(connection)  # the hold table, even before any consumer ran
            return await work(context.pool)

    with hold_infra() as endpoints:
        return asyncio.run(main(endpoints.dsn, endpoints.redis_url))


def _fail(message: str) -> typer.Exit:
    console.print(f"[red]{escape(message)}[/red]")
    return typer.Exit(1)


@app.command("holds")
def holds(
    name: Annotated[str | None, typer.Argument(help="Only this projection.")] = None,
    limit: int = typer.Option(20, min=1, max=1000, help="How many of the newest holds."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per hold."),
) -> None:
    """Holds, newest first: open ones (status held) and how earlier ones were resolved."""
    from event_store.subscription import hold_history

    found = _run(lambda pool: hold_history(pool, name, limit))
    if as_json:
        for hold in found:
            typer.echo(json.dumps({"name": hold.name, **hold.to_json()}))
        return
    table = Table("projection", "position", "event", "error", "attempts", "status", "resolution")
    for hold in found:
        resolution = (
            ""
            if hold.resolved_at is None
            else f"{hold.resolved_at:%Y-%m-%d %H:%M:%S} by {hold.resolved_by}: {hold.reason or '-'}"
        )
        table.add_row(
            escape(hold.name), str(hold.position), escape(f"{hold.stream} v{hold.version} {hold.event_type}"),
            escape(f"{hold.error_class}: {hold.error_message}"), str(hold.attempts), hold.status,
            escape(resolution), style="red" if hold.status == "held" else None,
        )  # fmt: skip
    console.print(table)


@app.command("retry")
def retry(
    name: Annotated[str, typer.Argument(help="The held projection.")],
    reason: str = typer.Option(None, help="Why (the fix deployed, say); stored with the hold."),
    by: str = typer.Option(None, help="Who resolves it (default: your user name)."),
) -> None:
    """End NAME's hold: its consumers try the held event again within seconds. If it still
    fails, it is held again (a new hold row)."""
    from event_store.subscription import NotHeld, SkipRefused, retry_held

    try:
        hold = _run(lambda pool: retry_held(pool, name, by=by or _operator(), reason=reason))
    except (NotHeld, SkipRefused) as error:
        raise _fail(str(error)) from None
    console.print(f"{escape(name)}: hold at position {hold.position} released; it tries that event again")


@app.command("skip")
def skip(
    name: Annotated[str, typer.Argument(help="The held projection.")],
    position: int = typer.Option(..., min=1, help="The held position (see `status`): nothing else."),
    reason: str = typer.Option(..., help="Why this event may be left out of the read model; stored."),
    by: str = typer.Option(None, help="Who skips it (default: your user name)."),
) -> None:
    """Skip exactly the event NAME is held at: its checkpoint moves past it, in the transaction
    that records who, when and why. Refused for any other position."""
    from event_store.subscription import NotHeld, SkipRefused, skip_held

    try:
        hold = _run(lambda pool: skip_held(pool, name, position, by=by or _operator(), reason=reason))
    except (NotHeld, SkipRefused) as error:
        raise _fail(str(error)) from None
    console.print(
        f"{escape(name)}: skipped position {hold.position} ({escape(hold.stream)} version {hold.version}, "
        f"{escape(hold.event_type)}); reason stored"
    )


if __name__ == "__main__":
    app()
