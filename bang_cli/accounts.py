"""`bang-league accounts invite --display-name NAME [--login LOGIN]`: an invite link for one
person, who then accepts it over REST (``POST /accounts/invites/{token}/accept``) with their
own password. The link's secret is printed once; the database keeps only its hash.

Reads the same settings as the server (`BANG_DATABASE_URL`, `BANG_DATA_DIR`, …), so an invite
made here is accepted there.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Annotated

import typer

from event_store import create_pool
from infra.postgres import resolve_postgres
from services.accounts.errors import InvalidAccountInput
from services.accounts.schema import prepare_database
from services.accounts.service import AccountService, IssuedInvite
from services.accounts.settings import AccountSettings
from services.api.settings import ApiSettings

app = typer.Typer(no_args_is_help=True, help="Accounts: invite people, who then set their own password.")

INVITED_BY_OPERATOR = "operator"
"""Who issued an invite made on the command line (the clubs' organisers will be named later)."""


async def create_invite(
    settings: ApiSettings, display_name: str, login: str | None, accounts: AccountSettings | None = None
) -> IssuedInvite:
    url = settings.database.url
    resolved = None
    if url is None:
        resolved = await asyncio.to_thread(resolve_postgres, settings.data_dir)
        url = resolved.dsn
    try:
        pool = await create_pool(url, min_size=1, max_size=2)
        try:
            await prepare_database(pool)
            service = AccountService(pool, accounts or AccountSettings.from_env())
            return await service.issue_invite(display_name, login=login, issued_by=INVITED_BY_OPERATOR)
        finally:
            await pool.close()
    finally:
        if resolved is not None:
            resolved.close()


def accept_link(base_url: str, token: str) -> str:
    return f"{base_url.rstrip('/')}/accounts/invites/{token}/accept"


@app.command("invite")
def invite(
    display_name: Annotated[str, typer.Option("--display-name", help="The person's name as others see it.")],
    login: Annotated[
        str | None, typer.Option("--login", help="Their login name (default: they choose it).")
    ] = None,
    base_url: Annotated[
        str, typer.Option("--base-url", help="Where the API is reached, for the printed link.")
    ] = "http://127.0.0.1:8000",
    database_url: Annotated[
        str | None, typer.Option("--database-url", help="Default: BANG_DATABASE_URL.")
    ] = None,
) -> None:
    """Create an invite and print its link (POST it with a password to create the account).
    It cannot be shown again: only its hash is kept."""
    settings = ApiSettings.from_env()
    if database_url is not None:
        settings = dataclasses.replace(
            settings, database=dataclasses.replace(settings.database, url=database_url)
        )
    try:
        issued = asyncio.run(create_invite(settings, display_name, login))
    except InvalidAccountInput as error:
        raise typer.BadParameter(error.rule, param_hint=f"--{error.field.replace('_', '-')}") from None
    typer.echo(accept_link(base_url, issued.token))
    typer.echo(f"expires {issued.expires_at.isoformat()}", err=True)
