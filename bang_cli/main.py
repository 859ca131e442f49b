"""The `bang-league` command line: one typer app, one sub-app per area.

Each area registers its commands in its own module so that adding a command never means
editing somebody else's file: `bang_cli/<area>.py` defines a typer app and it is mounted here.
"""

from __future__ import annotations

import typer

from bang_cli import accounts, api, audit, bench, league, ops, projections, rules, serve, simulate
from bang_cli import graphql as graphql_cli

app = typer.Typer(
    no_args_is_help=True,
    help="bang-league: tournament and league server for BANG! The Dice Game.",
)
app.add_typer(rules.app, name="rules")
app.command("bench")(bench.bench)
app.command("simulate")(simulate.simulate)
app.command("audit")(audit.audit)
app.add_typer(api.tokens_app, name="tokens")
app.add_typer(accounts.app, name="accounts")
app.add_typer(graphql_cli.app, name="graphql")
app.add_typer(league.app, name="league")
app.add_typer(serve.app)  # serve, api, worker, consume, migrate, status, health
app.add_typer(ops.app)  # seed-demo, import, export, leagues, audit-all, rebuild, backup, restore
app.add_typer(projections.app, name="projections")  # holds, retry, skip

if __name__ == "__main__":
    app()
