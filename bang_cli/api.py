"""`bang-league api [--host --port]` serves the API with uvicorn;
`bang-league tokens create-organiser NAME` issues an organiser token (printed once, kept hashed).

Both read the same settings as the server (`BANG_DATABASE_URL`, `BANG_REDIS_URL`,
`BANG_DATA_DIR`, …; see services/api/settings.py), so a token created here is valid there.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Annotated

import typer
import uvicorn

from event_store import create_pool
from infra.postgres import resolve_postgres
from services.api.settings import ApiSettings
from services.game.schema import prepare_database
from services.game.tokens import TokenVault

tokens_app = typer.Typer(no_args_is_help=True, help="Access tokens for the API.")


def serve(
    host: Annotated[
        str | None,
        typer.Option("--host", help="Interface to listen on (default BANG_API_HOST or 127.0.0.1)."),
    ] = None,
    port: Annotated[int | None, typer.Option("--port", help="Port (default BANG_API_PORT or 8000).")] = None,
    workers: Annotated[
        int, typer.Option("--workers", min=1, help="Worker processes (they share games through Redis).")
    ] = 1,
) -> None:
    """Run the API (REST, GraphQL with subscriptions, OpenAPI at /schema) under uvicorn."""
    settings = ApiSettings.from_env()
    uvicorn.run(
        "services.api.asgi:app",
        host=host or settings.server.host,
        port=port or settings.server.port,
        workers=workers,
        ws="websockets-sansio",
        log_level="info",
        log_config=None,  # keep the JSON logging services.api.asgi configured
    )


async def create_organiser_token(name: str, settings: ApiSettings | None = None) -> str:
    """Issue an organiser token in the database the API uses; returns the token (shown once)."""
    settings = settings or ApiSettings.from_env()
    url = settings.database.url
    resolved = None
    if url is None:
        resolved = await asyncio.to_thread(resolve_postgres, settings.data_dir)
        url = resolved.dsn
    try:
        pool = await create_pool(url, min_size=1, max_size=2)
        try:
            await prepare_database(pool)
            return await TokenVault(pool).issue_organiser(name)
        finally:
            await pool.close()
    finally:
        if resolved is not None:
            resolved.close()


@tokens_app.command("create-organiser")
def create_organiser(
    name: Annotated[str, typer.Argument(help="The organiser (a club or a league official).")],
    database_url: Annotated[
        str | None, typer.Option("--database-url", help="Default: BANG_DATABASE_URL.")
    ] = None,
) -> None:
    """Create an organiser token and print it. It cannot be shown again: only its hash is kept."""
    settings = ApiSettings.from_env()
    if database_url is not None:
        settings = dataclasses.replace(
            settings, database=dataclasses.replace(settings.database, url=database_url)
        )
    try:
        token = asyncio.run(create_organiser_token(name, settings))
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="NAME") from None
    typer.echo(token)
