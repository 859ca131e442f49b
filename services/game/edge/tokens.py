"""Bearer tokens: who is calling, and what they may see of a game.

A token is 32 random bytes (``secrets.token_urlsafe``); the table ``access_tokens`` keeps only
its sha256, so a copy of the database cannot be used to act as anybody. Two kinds:

- **player**: speaks for one member in one game (issued on join, or to the organiser who
  creates a game for known members, to hand out);
- **organiser**: created by an operator (``bang-league tokens create-organiser NAME``); creates
  friendly (non-league) games and keeps the record of the (friendly) table games it created. Its subject
  is opaque (``organiser:<uuid>``), the name only its label: two tokens named alike are two
  organisers, and neither sees or moves in the other's games.

A caller may also be an **account** (a session or an API token of ``services/accounts``): not
kept here, resolved by the clubs' service (``GameGateway.authenticate``), its ``Principal``
carrying the account's club roles.

A token may carry an expiry (``expires_at``) and be revoked (``revoked_at``; by the token, by its
organiser's name, a game's player tokens, or a member's player tokens in every game when their
account logs out everywhere or changes its password). A revocation must reach every API process within
seconds, yet authenticating should not cost a database round trip per request. So each process
caches resolved tokens for at most ``cache_ttl`` seconds (then asks the database again), and a
revocation is also published on Redis, where every vault drops the token from its cache at
once. Redis only speeds it up: a lost message is made good by the TTL. The channel carries
sha256 digests, never tokens.

Most tokens a busy API sees are accounts' (sessions, API tokens), which the vault never holds:
those are told apart without a query. A vault token is always ``_TOKEN_LENGTH`` characters; an
account's starts with ``blt_`` or ``bls_`` and is longer, so it is answered None at once. (A
session opened before sessions had a prefix looks like a vault token: its miss is remembered
for ``cache_ttl``, which is exact, since a token is stored before anybody is given it.)

``viewer_for`` turns a caller into the ``Viewer`` that ``services.game.edge.visibility`` redacts for,
so every channel derives what a caller sees the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum

import asyncpg
import msgspec
import redis.asyncio as aioredis

from services.clubs.roles import Principal as AccountPrincipal
from services.game.application.lifecycle import GameMode
from services.game.application.service import Actor, ActorKind
from services.game.application.session import GameSession
from services.game.edge.visibility import PUBLIC, Viewer

log = logging.getLogger(__name__)

_TOKEN_BYTES = 32
_TOKEN_LENGTH = 43
"""``secrets.token_urlsafe(32)``: every token the vault has ever issued is this long."""
ACCOUNT_TOKEN_PREFIXES = ("blt_", "bls_")
"""An account's API token and session (services/accounts): never the vault's."""
_CACHE_SIZE = 50_000
CACHE_TTL_SECONDS = 5.0
"""How long a process trusts a token it resolved before asking the database again: the bound on
how late a revocation whose Redis message was lost is noticed."""
_RECONNECT_DELAY_SECONDS = 1.0


def revocation_channel(namespace: str) -> str:
    """One channel per database, like the game fan-out's."""
    return f"bang:tokens:{namespace}:revoked"


class TokenKind(StrEnum):
    PLAYER = "player"
    ORGANISER = "organiser"
    ACCOUNT = "account"
    """A signed-in account (session or API token); never stored in ``access_tokens``."""


ORGANISER_PREFIX = "organiser:"


class Principal(msgspec.Struct, frozen=True, kw_only=True):
    """Who a valid token speaks for."""

    kind: TokenKind
    subject: str
    """The member id (player tokens), the organiser's opaque id (organiser tokens) or the
    account id (accounts: a member id IS an account id)."""
    game_id: str | None = None
    """The one game a player token is good for."""
    account: AccountPrincipal | None = None
    """Accounts only: the display name and the club roles as of this request."""

    @classmethod
    def of_account(cls, account: AccountPrincipal) -> Principal:
        return cls(kind=TokenKind.ACCOUNT, subject=account.account_id, account=account)

    def actor_for(self, game_id: str | None) -> Actor | None:
        """The service's Actor of a vault token in ``game_id``; None when this token is not good
        there. (An account's actor depends on the game: ``GameGateway.actor_in``.)"""
        if self.kind is TokenKind.ORGANISER:
            return Actor(kind=ActorKind.ORGANISER, id=self.subject)
        if self.kind is TokenKind.PLAYER and game_id is not None and game_id == self.game_id:
            return Actor(kind=ActorKind.PLAYER, id=self.subject)
        return None


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def is_account_token(token: str) -> bool:
    """Whether ``token`` can only be an account's (so the vault need not look it up)."""
    return len(token) != _TOKEN_LENGTH and token.startswith(ACCOUNT_TOKEN_PREFIXES)


def viewer_for(principal: Principal | None, session: GameSession, *, keeps_score: bool = False) -> Viewer:
    """What ``principal`` may see of ``session``: a player their own seat (a player token in its
    game, an account seated in it), whoever keeps a table game's score every seat
    (``keeps_score``, which the gateway decides: a league game's current scorekeeper grant, a
    friendly game's creator), everybody else (a club's organisers and admins included, and a
    league game's creator as such) the public view."""
    if principal is None:
        return PUBLIC
    if principal.kind is TokenKind.PLAYER:
        return Viewer(member_id=principal.subject) if principal.game_id == session.game_id else PUBLIC
    if session.mode is GameMode.TABLE and keeps_score:
        return Viewer(scorekeeper=True)
    if principal.kind is TokenKind.ACCOUNT and (
        any(j.member_id == principal.subject for j in session.joined)
        or session.seat_of(principal.subject) is not None  # a substitute (``SeatReplaced``)
    ):
        return Viewer(member_id=principal.subject)
    return PUBLIC


@dataclass(slots=True)
class _Resolved:
    principal: Principal
    expires_at: datetime | None
    checked_at: float
    """``clock()`` when the database last said the token is valid."""


class TokenVault:
    """Issues, resolves and revokes tokens (PostgreSQL table ``access_tokens``).

    Without ``redis`` (the CLI, tests of one process) revocations are not published: other
    processes then notice them within ``cache_ttl``."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        *,
        redis: aioredis.Redis | None = None,
        channel: str | None = None,
        cache_ttl: float = CACHE_TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if (redis is None) != (channel is None):
            raise ValueError("revocations are published with a Redis client and a channel, or not at all")
        self._pool = pool
        self._redis = redis
        self.channel = channel
        self.cache_ttl = cache_ttl
        self._clock = clock
        self._cache: OrderedDict[bytes, _Resolved] = OrderedDict()
        self._unknown: OrderedDict[bytes, float] = OrderedDict()
        """Digests the database did not know, and when it said so."""
        self._listener: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()
        self._closing = False
        self._forgotten = 0
        """Counts revocations heard; a resolve that saw it move keeps nothing in the cache."""

    async def start(self) -> None:
        """Listen for other processes' revocations (when given Redis)."""
        if self._redis is not None and self._listener is None:
            self._listener = asyncio.create_task(self._listen())
            await asyncio.wait_for(self._subscribed.wait(), timeout=10)

    async def close(self) -> None:
        self._closing = True
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
            self._listener = None

    # -- issuing ---------------------------------------------------------------------------

    async def issue(
        self, principal: Principal, *, label: str | None = None, expires_in: timedelta | None = None
    ) -> str:
        """A new token for ``principal``; the only time the token itself is ever seen."""
        if principal.kind is TokenKind.ACCOUNT:
            raise ValueError("accounts sign in at /accounts; the vault keeps game and organiser tokens")
        if (principal.kind is TokenKind.PLAYER) != (principal.game_id is not None):
            raise ValueError("a player token names its game; an organiser token names none")
        if expires_in is not None and expires_in <= timedelta(0):
            raise ValueError("a token expires a positive time after it is issued")
        token = secrets.token_urlsafe(_TOKEN_BYTES)
        await self._pool.execute(
            """
            INSERT INTO access_tokens (token_hash, kind, subject, game_id, label, expires_at)
            VALUES ($1, $2, $3, $4, $5, now() + $6::interval)
            """,
            token_hash(token),
            principal.kind.value,
            principal.subject,
            principal.game_id,
            label,
            expires_in,
        )
        return token

    async def issue_organiser(self, name: str, *, expires_in: timedelta | None = None) -> str:
        """A new organiser: an opaque subject of its own, ``name`` only its label (a name says
        nothing about who holds it, so it must never grant another token's games)."""
        if not name.strip():
            raise ValueError("an organiser has a name")
        subject = ORGANISER_PREFIX + uuid.uuid4().hex
        principal = Principal(kind=TokenKind.ORGANISER, subject=subject)
        return await self.issue(principal, label=name.strip(), expires_in=expires_in)

    async def issue_player(self, game_id: str, member_id: str) -> str:
        return await self.issue(Principal(kind=TokenKind.PLAYER, subject=member_id, game_id=game_id))

    # -- resolving ---------------------------------------------------------------------------

    async def resolve(self, token: str) -> Principal | None:
        """The principal of a valid token; None for an unknown, revoked or expired one."""
        if is_account_token(token):
            return None
        digest = token_hash(token)
        cached = self._cache.get(digest)
        if cached is not None and self._still_good(cached):
            self._cache.move_to_end(digest)
            return cached.principal
        missed = self._unknown.get(digest)
        if missed is not None and self._clock() - missed < self.cache_ttl:
            return None
        checked_at, forgotten = self._clock(), self._forgotten
        row = await self._pool.fetchrow(
            """
            SELECT kind, subject, game_id, expires_at FROM access_tokens
             WHERE token_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
            """,
            digest,
        )
        if row is None:
            self._cache.pop(digest, None)
            # a token is stored before it is handed out, and a revoked or expired one never comes
            # back: a miss stays a miss (an old session, a wrong token), so it is remembered
            self._unknown[digest] = checked_at
            self._unknown.move_to_end(digest)
            while len(self._unknown) > _CACHE_SIZE:
                self._unknown.popitem(last=False)
            return None
        principal = Principal(kind=TokenKind(row["kind"]), subject=row["subject"], game_id=row["game_id"])
        if forgotten == self._forgotten:  # else a revocation may have crossed this read: don't keep it
            self._cache[digest] = _Resolved(principal, row["expires_at"], checked_at)
            self._cache.move_to_end(digest)
            while len(self._cache) > _CACHE_SIZE:
                self._cache.popitem(last=False)
        return principal

    def _still_good(self, cached: _Resolved) -> bool:
        if self._clock() - cached.checked_at >= self.cache_ttl:
            return False
        return cached.expires_at is None or cached.expires_at > datetime.now(UTC)

    # -- revoking ------------------------------------------------------------------------------

    async def revoke(self, token: str) -> bool:
        """Revoke one token; False if it was unknown or revoked already."""
        return await self.revoke_hashes([token_hash(token)]) == 1

    async def revoke_hashes(self, digests: Iterable[bytes]) -> int:
        rows = await self._pool.fetch(
            """
            UPDATE access_tokens SET revoked_at = now()
             WHERE token_hash = ANY($1::bytea[]) AND revoked_at IS NULL
            RETURNING token_hash
            """,
            list(digests),
        )
        return await self._revoked([bytes(r["token_hash"]) for r in rows])

    async def revoke_organiser(self, name: str) -> int:
        """Every organiser token labelled ``name`` (tokens issued before subjects were opaque
        carry the name as subject and label alike)."""
        rows = await self._pool.fetch(
            """
            UPDATE access_tokens SET revoked_at = now()
             WHERE kind = 'organiser' AND label = $1 AND revoked_at IS NULL
            RETURNING token_hash
            """,
            name.strip(),
        )
        return await self._revoked([bytes(r["token_hash"]) for r in rows])

    async def revoke_players(self, game_id: str, member_id: str | None = None) -> int:
        """The player tokens of ``game_id`` (only ``member_id``'s when given)."""
        rows = await self._pool.fetch(
            """
            UPDATE access_tokens SET revoked_at = now()
             WHERE kind = 'player' AND game_id = $1 AND ($2::text IS NULL OR subject = $2)
               AND revoked_at IS NULL
            RETURNING token_hash
            """,
            game_id,
            member_id,
        )
        return await self._revoked([bytes(r["token_hash"]) for r in rows])

    async def revoke_member(self, member_id: str) -> int:
        """Every player token of ``member_id``, in every game: their account logged out
        everywhere or changed its password (``AccountService.ends_with_sessions``), and a token
        got by joining with a session must not outlive it."""
        rows = await self._pool.fetch(
            """
            UPDATE access_tokens SET revoked_at = now()
             WHERE kind = 'player' AND subject = $1 AND revoked_at IS NULL
            RETURNING token_hash
            """,
            member_id,
        )
        return await self._revoked([bytes(r["token_hash"]) for r in rows])

    async def _revoked(self, digests: list[bytes]) -> int:
        """Forget ``digests`` here, and tell the other processes to."""
        self._forget(digests)
        if digests and self._redis is not None and self.channel is not None:
            try:
                await self._redis.publish(self.channel, " ".join(d.hex() for d in digests))
            except (OSError, aioredis.RedisError) as error:
                # the other processes' cache TTL still bounds how long they trust these tokens
                log.warning("could not publish %d token revocation(s): %s", len(digests), error)
        return len(digests)

    def _forget(self, digests: Iterable[bytes]) -> None:
        self._forgotten += 1
        for digest in digests:
            self._cache.pop(digest, None)

    async def _listen(self) -> None:
        assert self._redis is not None and self.channel is not None
        while not self._closing:
            try:
                async with self._redis.pubsub() as pubsub:
                    await pubsub.subscribe(self.channel)
                    self._subscribed.set()
                    # what was missed while away is at most cache_ttl old: drop it all anyway
                    self._cache.clear()
                    self._forgotten += 1
                    async for message in pubsub.listen():
                        if self._closing:
                            return
                        if message.get("type") == "message":
                            self._forget(_digests(message["data"]))
            except (OSError, aioredis.RedisError) as error:
                log.warning("redis token-revocation channel lost: %s; the cache TTL bounds staleness", error)
            await asyncio.sleep(_RECONNECT_DELAY_SECONDS)


def _digests(data: bytes | str) -> list[bytes]:
    text = data.decode() if isinstance(data, bytes) else data
    digests = []
    for part in text.split():
        with contextlib.suppress(ValueError):
            digests.append(bytes.fromhex(part))
    return digests
