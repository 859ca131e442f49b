"""API tokens for scripts: bearer secrets that speak for an account with a subset of its roles.

Like a session token (sessions.py) a token is 32 random bytes of which ``api_tokens`` keeps only
the sha256, with an expiry, revocable. Unlike one, it is recognisable (``blt_`` first, so a
leaked one is found by secret scanners and told apart from a session before any lookup), it
is made on purpose by its owner with a label, and it carries *grants*: club roles, each one the
owner held when it was made. Which roles a grant is still worth is the clubs' business
(services/clubs: a token's roles are its grants that the account still holds).

A token lives no longer than the sessions that could make it: logging out everywhere and
changing the password revoke every token of the account too (``revoke_all``), else a stolen
session would leave behind a token good for a year.
"""

from __future__ import annotations

import secrets
import uuid
from datetime import datetime, timedelta

import asyncpg
import msgspec

from services.accounts.errors import SessionRefused
from services.accounts.events import TokenGrant
from services.accounts.sessions import token_hash

PREFIX = "blt_"
_TOKEN_BYTES = 32

UNKNOWN = "the API token is not valid"
EXPIRED = "the API token has expired; create a new one"
REVOKED = "the API token was revoked"


class ApiTokenInfo(msgspec.Struct, frozen=True, kw_only=True):
    """What its owner may see of a token (never the secret, which is shown once)."""

    token_id: str
    label: str
    grants: list[TokenGrant]
    created_at: datetime
    expires_at: datetime


class ResolvedToken(msgspec.Struct, frozen=True, kw_only=True):
    token_id: str
    account_id: str
    grants: tuple[TokenGrant, ...]
    expires_at: datetime | None = None


def is_api_token(token: str) -> bool:
    return token.startswith(PREFIX)


async def create_token(
    connection: asyncpg.Connection, account_id: str, label: str, grants: list[TokenGrant], lifetime: timedelta
) -> tuple[str, ApiTokenInfo]:
    """A new token (its secret, seen only now) and what is kept of it."""
    token = PREFIX + secrets.token_urlsafe(_TOKEN_BYTES)
    token_id = uuid.uuid4().hex
    row = await connection.fetchrow(
        """
        INSERT INTO api_tokens (token_id, token_hash, account_id, label, grants, expires_at)
        VALUES ($1, $2, $3, $4, $5::jsonb, now() + $6::interval) RETURNING created_at, expires_at
        """,
        token_id, token_hash(token), account_id, label, msgspec.json.encode(grants).decode(), lifetime,
    )  # fmt: skip
    info = ApiTokenInfo(
        token_id=token_id,
        label=label,
        grants=grants,
        created_at=row["created_at"],
        expires_at=row["expires_at"],
    )
    return token, info


async def resolve_token(pool: asyncpg.Pool, token: str) -> ResolvedToken:
    """The token's account and grants, or ``SessionRefused`` saying what is wrong with it."""
    row = await pool.fetchrow(
        """
        SELECT token_id, account_id, grants::text AS grants, revoked_at IS NOT NULL AS revoked,
               expires_at, expires_at <= now() AS expired
          FROM api_tokens WHERE token_hash = $1
        """,
        token_hash(token),
    )
    if row is None:
        raise SessionRefused(UNKNOWN)
    if row["revoked"]:
        raise SessionRefused(REVOKED)
    if row["expired"]:
        raise SessionRefused(EXPIRED)
    grants = msgspec.json.decode(row["grants"], type=tuple[TokenGrant, ...])
    return ResolvedToken(
        token_id=row["token_id"], account_id=row["account_id"], grants=grants, expires_at=row["expires_at"]
    )


async def list_tokens(pool: asyncpg.Pool, account_id: str) -> list[ApiTokenInfo]:
    """The account's tokens not revoked nor expired, oldest first."""
    rows = await pool.fetch(
        """
        SELECT token_id, label, grants::text AS grants, created_at, expires_at FROM api_tokens
         WHERE account_id = $1 AND revoked_at IS NULL AND expires_at > now()
         ORDER BY created_at, token_id
        """,
        account_id,
    )
    return [
        ApiTokenInfo(
            token_id=r["token_id"],
            label=r["label"],
            grants=msgspec.json.decode(r["grants"], type=list[TokenGrant]),
            created_at=r["created_at"],
            expires_at=r["expires_at"],
        )
        for r in rows
    ]


async def revoke_token(connection: asyncpg.Connection, account_id: str, token_id: str) -> bool | None:
    """True when revoked now, False when it was already, None when the account has no such token."""
    row = await connection.fetchrow(
        """
        SELECT revoked_at IS NOT NULL AS revoked FROM api_tokens
         WHERE token_id = $1 AND account_id = $2 FOR UPDATE
        """,
        token_id,
        account_id,
    )
    if row is None:
        return None
    if row["revoked"]:
        return False
    await connection.execute("UPDATE api_tokens SET revoked_at = now() WHERE token_id = $1", token_id)
    return True


async def revoke_all(connection: asyncpg.Connection, account_id: str) -> list[str]:
    """Every token of the account still in force, revoked now (log out everywhere, a new
    password): the ids, in order."""
    rows = await connection.fetch(
        """
        UPDATE api_tokens SET revoked_at = now()
         WHERE account_id = $1 AND revoked_at IS NULL AND expires_at > now()
        RETURNING token_id
        """,
        account_id,
    )
    return sorted(row["token_id"] for row in rows)
