"""`bang-league api [--host --port]` serves the API with uvicorn;
`bang-league tokens create-organiser NAME [--expires-in 30d]` issues an organiser token (printed
once, kept hashed); `bang-league tokens revoke` revokes a token (read from stdin with `-`, so it
stays out of the shell's history), an organiser's tokens, or a game's player tokens.

Both read the same settings as the server (`BANG_DATABASE_URL`, `BANG_REDIS_URL`,
`BANG_DATA_DIR`, …; see services/api/settings.py), so a token created here is valid there.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Annotated

import typer
import uvicorn

from event_store import create_pool
from infra.postgres import database_name, resolve_postgres
from services.api.server import uvicorn_options
from services.api.settings import ApiSettings
from services.game.edge.fanout import redis_client
from services.game.edge.tokens import TokenVault, revocation_channel
from services.game.schema import prepare_database

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
        **uvicorn_options(settings.server),  # trusted proxies, the header timeout
    )


_DURATION = re.compile(r"^\s*(\d+)\s*([smhdw])\s*$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_duration(text: str) -> timedelta:
    """``90s``, ``15m``, ``12h``, ``30d``, ``2w``."""
    match = _DURATION.match(text)
    if match is None or int(match[1]) == 0:
        raise ValueError(f"{text!r} is not a duration like 90s, 15m, 12h, 30d or 2w")
    return timedelta(**{_UNITS[match[2]]: int(match[1])})


POOL_CLOSE_SECONDS = 10.0
"""How long closing the vault's pool waits for its connections before it drops them."""


@asynccontextmanager
async def token_vault(settings: ApiSettings) -> AsyncIterator[TokenVault]:
    """The vault of the database the API uses. With ``BANG_REDIS_URL`` set, revocations are
    published to the running API processes at once; else they notice within the cache TTL."""
    url = settings.database.url
    resolved = None
    if url is None:
        resolved = await asyncio.to_thread(resolve_postgres, settings.data_dir)
        url = resolved.dsn
    try:
        pool = await create_pool(url, min_size=1, max_size=2)
        redis_url, timeout = settings.redis.url, settings.timeouts.redis
        redis = None if redis_url is None else redis_client(redis_url, timeout=timeout)
        try:
            await prepare_database(pool)
            channel = None if redis is None else revocation_channel(database_name(url))
            yield TokenVault(pool, redis=redis, channel=channel)
        finally:
            if redis is not None:
                await redis.aclose()
            try:
                # a connection left mid-query by a stalled or restarted server (the soak's
                # faults) is never released: closing gracefully would wait for it forever
                await asyncio.wait_for(pool.close(), POOL_CLOSE_SECONDS)
            except TimeoutError:
                pool.terminate()
    finally:
        if resolved is not None:
            resolved.close()


async def create_organiser_token(
    name: str, settings: ApiSettings | None = None, *, expires_in: timedelta | None = None
) -> str:
    """Issue an organiser token in the database the API uses; returns the token (shown once)."""
    async with token_vault(settings or ApiSettings.from_env()) as vault:
        return await vault.issue_organiser(name, expires_in=expires_in)


async def revoke_tokens(
    settings: ApiSettings,
    *,
    token: str | None = None,
    organiser: str | None = None,
    game_id: str | None = None,
    member_id: str | None = None,
) -> int:
    """Revoke one token, every token of an organiser, or a game's player tokens (one member's
    with ``member_id``); how many were revoked."""
    if sum(x is not None for x in (token, organiser, game_id)) != 1:
        raise ValueError("name exactly one of a token, --organiser or --game")
    if member_id is not None and game_id is None:
        raise ValueError("--member needs --game")
    async with token_vault(settings) as vault:
        if token is not None:
            return int(await vault.revoke(token))
        if organiser is not None:
            return await vault.revoke_organiser(organiser)
        assert game_id is not None
        return await vault.revoke_players(game_id, member_id)


@tokens_app.command("create-organiser")
def create_organiser(
    name: Annotated[
        str, typer.Argument(help="A label for the token (friendly games only; it grants nothing by itself).")
    ],
    database_url: Annotated[
        str | None, typer.Option("--database-url", help="Default: BANG_DATABASE_URL.")
    ] = None,
    expires_in: Annotated[
        str | None, typer.Option("--expires-in", help="e.g. 12h, 30d, 2w (default: never).")
    ] = None,
) -> None:
    """Create an organiser token and print it. It cannot be shown again: only its hash is kept."""
    settings = _settings(database_url)
    try:
        lifetime = None if expires_in is None else parse_duration(expires_in)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--expires-in") from None
    try:
        token = asyncio.run(create_organiser_token(name, settings, expires_in=lifetime))
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="NAME") from None
    typer.echo(token)


@tokens_app.command("revoke")
def revoke(
    token: Annotated[
        str | None, typer.Argument(help="The token to revoke; '-' reads it from stdin.")
    ] = None,
    organiser: Annotated[
        str | None, typer.Option("--organiser", help="Every organiser token with this name (its label).")
    ] = None,
    game: Annotated[str | None, typer.Option("--game", help="The player tokens of this game.")] = None,
    member: Annotated[str | None, typer.Option("--member", help="With --game: only this member's.")] = None,
    database_url: Annotated[
        str | None, typer.Option("--database-url", help="Default: BANG_DATABASE_URL.")
    ] = None,
) -> None:
    """Revoke tokens: every API process refuses them within seconds. Prints how many."""
    if token == "-":
        token = sys.stdin.readline().strip()
    try:
        count = asyncio.run(
            revoke_tokens(
                _settings(database_url), token=token, organiser=organiser, game_id=game, member_id=member
            )
        )
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    typer.echo(f"{count} token(s) revoked")


def _settings(database_url: str | None) -> ApiSettings:
    settings = ApiSettings.from_env()
    if database_url is not None:
        settings = dataclasses.replace(
            settings, database=dataclasses.replace(settings.database, url=database_url)
        )
    return settings
