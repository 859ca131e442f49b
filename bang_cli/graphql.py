"""`bang-league graphql export [--check]`: write the GraphQL schema the code defines to
`graphql/schema.graphql` (the contract clients and `graphql/operations/` are checked against)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from services.api.schema import schema_sdl

SCHEMA_FILE = Path(__file__).resolve().parents[1] / "graphql" / "schema.graphql"

app = typer.Typer(no_args_is_help=True, help="The GraphQL schema: export it, check it has not drifted.")


@app.callback()
def graphql() -> None:
    """The GraphQL schema: export it, check it has not drifted."""


@app.command("export")
def export(
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to write the SDL.")] = SCHEMA_FILE,
    check: Annotated[
        bool, typer.Option("--check", help="Write nothing; exit 1 if the file differs from the code.")
    ] = False,
) -> None:
    """Write the composed schema (every service's types) as SDL to graphql/schema.graphql."""
    sdl = schema_sdl()
    if check:
        current = output.read_text() if output.exists() else ""
        if current != sdl:
            typer.echo(f"{output} is out of date: run `bang-league graphql export`", err=True)
            raise typer.Exit(1)
        typer.echo(f"{output} is up to date")
        return
    output.write_text(sdl)
    typer.echo(f"wrote {output} ({len(sdl.splitlines())} lines)")
