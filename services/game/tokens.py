"""Bearer tokens: who is calling, and what they may see of a game.

A token is 32 random bytes (``secrets.token_urlsafe``); the table ``access_tokens`` keeps only
its sha256, so a copy of the database cannot be used to act as anybody. Two kinds:

- **player**: speaks for one member in one game (issued on join, or to the organiser who
  creates a game for known members, to hand out);
- **organiser**: created by an operator (``bang-league tokens create-organiser NAME``); creates
  games and keeps the record of table games.

``viewer_for`` turns a caller into the ``Viewer`` that ``services.game.visibility`` redacts for,
so every channel derives what a caller sees the same way.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import OrderedDict
from enum import StrEnum

import asyncpg
import msgspec

from services.game.lifecycle import GameMode
from services.game.service import Actor, ActorKind
from services.game.session import GameSession
from services.game.visibility import PUBLIC, Viewer

_TOKEN_BYTES = 32
_CACHE_SIZE = 50_000


class TokenKind(StrEnum):
    PLAYER = "player"
    ORGANISER = "organiser"


class Principal(msgspec.Struct, frozen=True, kw_only=True):
    """Who a valid token speaks for."""

    kind: TokenKind
    subject: str
    """The member id (player tokens) or the organiser's id (organiser tokens)."""
    game_id: str | None = None
    """The one game a player token is good for."""

    def actor_for(self, game_id: str | None) -> Actor | None:
        """The service's Actor for acting in ``game_id``; None when this token is not good there."""
        if self.kind is TokenKind.ORGANISER:
            return Actor(kind=ActorKind.ORGANISER, id=self.subject)
        if game_id is not None and game_id == self.game_id:
            return Actor(kind=ActorKind.PLAYER, id=self.subject)
        return None


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def viewer_for(principal: Principal | None, session: GameSession) -> Viewer:
    """What ``principal`` may see of ``session``: a player their own seat, the organiser who
    created a table game every seat (they entered the roles), everybody else the public view."""
    if principal is None:
        return PUBLIC
    if principal.kind is TokenKind.PLAYER:
        return Viewer(member_id=principal.subject) if principal.game_id == session.game_id else PUBLIC
    if session.mode is GameMode.TABLE and session.created.created_by == principal.subject:
        return Viewer(scorekeeper=True)
    return PUBLIC


class TokenVault:
    """Issues and resolves tokens (PostgreSQL table ``access_tokens``).

    Resolved tokens are cached by hash in this process: a command's authentication should not
    cost a database round trip. Revocation is therefore seen by other processes only after
    their cache forgets the token (bounded size) or they restart — documented in docs/api.md.
    """

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._cache: OrderedDict[bytes, Principal] = OrderedDict()

    async def issue(self, principal: Principal, *, label: str | None = None) -> str:
        """A new token for ``principal``; the only time the token itself is ever seen."""
        if (principal.kind is TokenKind.PLAYER) != (principal.game_id is not None):
            raise ValueError("a player token names its game; an organiser token names none")
        token = secrets.token_urlsafe(_TOKEN_BYTES)
        await self._pool.execute(
            """
            INSERT INTO access_tokens (token_hash, kind, subject, game_id, label)
            VALUES ($1, $2, $3, $4, $5)
            """,
            token_hash(token),
            principal.kind.value,
            principal.subject,
            principal.game_id,
            label,
        )
        return token

    async def issue_organiser(self, name: str) -> str:
        if not name.strip():
            raise ValueError("an organiser has a name")
        return await self.issue(Principal(kind=TokenKind.ORGANISER, subject=name.strip()), label=name.strip())

    async def issue_player(self, game_id: str, member_id: str) -> str:
        return await self.issue(Principal(kind=TokenKind.PLAYER, subject=member_id, game_id=game_id))

    async def resolve(self, token: str) -> Principal | None:
        """The principal of a valid token; None for an unknown or revoked one."""
        digest = token_hash(token)
        cached = self._cache.get(digest)
        if cached is not None:
            self._cache.move_to_end(digest)
            return cached
        row = await self._pool.fetchrow(
            "SELECT kind, subject, game_id FROM access_tokens WHERE token_hash = $1 AND revoked_at IS NULL",
            digest,
        )
        if row is None:
            return None
        principal = Principal(kind=TokenKind(row["kind"]), subject=row["subject"], game_id=row["game_id"])
        self._cache[digest] = principal
        while len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        return principal

    async def revoke(self, token: str) -> bool:
        digest = token_hash(token)
        self._cache.pop(digest, None)
        status = await self._pool.execute(
            "UPDATE access_tokens SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL", digest
        )
        return status.endswith(" 1")
