"""Session tokens: opaque bearer secrets for a logged-in account.

As the game's access tokens (services/game/edge/tokens.py): 32 random bytes, of which the table
``account_sessions`` keeps only the sha256, so a copy of the database logs nobody in. Each has
an expiry and may be revoked (log out: this one; log out everywhere: all of the account's).
A session token starts with ``bls_`` (``SESSION_PREFIX``), as an API token with ``blt_``, so the
game's token vault knows it is none of its own without asking the database; sessions opened
before the prefix (bare 43 characters) stay good. What a session speaks for is cached per
process for seconds (services/accounts/callers.py): a revocation holds at once in the process
that made it, within the cache's TTL (sooner through Redis) in the others.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

import asyncpg
import msgspec

from services.accounts.errors import SessionRefused

_TOKEN_BYTES = 32
SESSION_PREFIX = "bls_"

MISSING = "a bearer token is required (Authorization: Bearer <session token>)"
UNKNOWN = "the session token is not valid"
EXPIRED = "the session has expired; log in again"
REVOKED = "the session was ended (logged out); log in again"


class Session(msgspec.Struct, frozen=True, kw_only=True):
    """Who a valid session token speaks for."""

    account_id: str
    token_hash: bytes
    expires_at: datetime | None = None


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def bearer_token(authorization: str | None) -> str:
    """The token of an ``Authorization: Bearer …`` header, or ``SessionRefused``."""
    if authorization is None:
        raise SessionRefused(MISSING)
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise SessionRefused(MISSING)
    return token.strip()


async def open_session(connection: asyncpg.Connection, account_id: str, lifetime: timedelta) -> str:
    """A new session token (the only time it is seen); on the caller's connection, so it joins
    whatever transaction registered the account."""
    token = SESSION_PREFIX + secrets.token_urlsafe(_TOKEN_BYTES)
    await connection.execute(
        """
        INSERT INTO account_sessions (token_hash, account_id, expires_at)
        VALUES ($1, $2, now() + $3::interval)
        """,
        token_hash(token),
        account_id,
        lifetime,
    )
    return token


async def resolve_session(pool: asyncpg.Pool, authorization: str | None) -> Session:
    digest = token_hash(bearer_token(authorization))
    row = await pool.fetchrow(
        """
        SELECT account_id, expires_at, revoked_at IS NOT NULL AS revoked, expires_at <= now() AS expired
          FROM account_sessions WHERE token_hash = $1
        """,
        digest,
    )
    if row is None:
        raise SessionRefused(UNKNOWN)
    if row["revoked"]:
        raise SessionRefused(REVOKED)
    if row["expired"]:
        raise SessionRefused(EXPIRED)
    return Session(account_id=row["account_id"], token_hash=digest, expires_at=row["expires_at"])


async def revoke_session(pool: asyncpg.Pool, session: Session) -> None:
    await pool.execute(
        "UPDATE account_sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL",
        session.token_hash,
    )


async def revoke_sessions(
    connection: asyncpg.Connection | asyncpg.Pool, account_id: str, *, keep: bytes | None = None
) -> int:
    """Every open session of ``account_id`` but ``keep``; how many were revoked."""
    rows = await connection.fetch(
        """
        UPDATE account_sessions SET revoked_at = now()
         WHERE account_id = $1 AND revoked_at IS NULL AND token_hash IS DISTINCT FROM $2
        RETURNING 1
        """,
        account_id,
        keep,
    )
    return len(rows)
