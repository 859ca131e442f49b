"""``AccountService``: invites, registration, login, sessions, passwords.

Each write is one PostgreSQL transaction that appends the facts (``account-<id>``,
``invite-<id>``) and writes the rows beside them (the hash, the session), so a refusal half-way
leaves nothing behind. Inputs are checked before anything is read or hashed; argon2 runs
outside every transaction (it takes tens of milliseconds and must not hold a row lock).
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import msgspec
import redis.asyncio as aioredis

from event_store import ANY, NO_STREAM, PostgresEventStore
from services.accounts.api_tokens import UNKNOWN as API_TOKEN_UNKNOWN
from services.accounts.api_tokens import (
    ApiTokenInfo,
    ResolvedToken,
    create_token,
    is_api_token,
    list_tokens,
    resolve_token,
    revoke_all,
    revoke_token,
)
from services.accounts.callers import CallerCache, changes_channel
from services.accounts.errors import (
    ApiTokenNotFound,
    InvalidAccountInput,
    InviteClaimsAccount,
    InviteExpired,
    InviteNotFound,
    InviteUsed,
    LoginNameTaken,
    LoginRefused,
    PasswordChecksBusy,
    SessionRefused,
    SessionRequired,
    WrongPassword,
)
from services.accounts.events import (
    ACCOUNTS_MAPPER,
    AccountClaimed,
    AccountEvent,
    AccountRegistered,
    ApiTokenCreated,
    ApiTokenRevoked,
    InviteAccepted,
    InviteIssued,
    InviteRenewed,
    PasswordChanged,
    TokenGrant,
    UnclaimedAccountRegistered,
    account_stream,
    invite_stream,
)
from services.accounts.names import login_key, normalise_display_name, normalise_login
from services.accounts.passwords import Passwords, check_password
from services.accounts.sessions import (
    UNKNOWN,
    Session,
    bearer_token,
    open_session,
    resolve_session,
    revoke_session,
    revoke_sessions,
    token_hash,
)
from services.accounts.settings import AccountSettings
from services.accounts.throttle import LoginThrottle

_INVITE_TOKEN_BYTES = 32
MAX_SECRET_LENGTH = 200
"""No token we issue is longer; a longer one is not looked up."""


class Account(msgspec.Struct, frozen=True, kw_only=True):
    """What anybody may be shown of an account (never its password hash)."""

    account_id: str
    login: str
    display_name: str


class Opened(msgspec.Struct, frozen=True, kw_only=True):
    """A new session: the token is shown this once."""

    account: Account
    token: str
    expires_at: datetime


class IssuedInvite(msgspec.Struct, frozen=True, kw_only=True):
    invite_id: str
    token: str
    """The secret of the link; shown this once, kept hashed."""
    display_name: str
    login: str | None
    expires_at: datetime


class AccountService:
    def __init__(
        self,
        pool: asyncpg.Pool,
        settings: AccountSettings,
        *,
        redis: aioredis.Redis | None = None,
        namespace: str = "accounts",
    ) -> None:
        self._pool = pool
        self._store = PostgresEventStore(pool, mapper=ACCOUNTS_MAPPER)
        self.settings = settings
        self.passwords = Passwords(settings)
        self.callers: CallerCache[Any] = CallerCache(
            redis=redis, channel=None if redis is None else changes_channel(namespace)
        )
        """Who a session or API token speaks for, cached for seconds (the clubs' service fills
        it); every write below that changes what an account's tokens may do forgets the account."""
        self.ends_with_sessions: list[Callable[[str], Awaitable[object]]] = []
        """What else speaks for an account and ends with all of its sessions (logging out
        everywhere, a new password), called with the account id once they have ended: the API
        app adds the game's player tokens (``TokenVault.revoke_member``), which accounts do not
        know of."""
        self._throttle = (
            None
            if redis is None
            else LoginThrottle(
                redis, namespace, settings.failed_logins_per_name, settings.failed_logins_per_address
            )
        )

    # -- invites ---------------------------------------------------------------------------

    async def issue_invite(
        self, display_name: str, *, login: str | None = None, issued_by: str
    ) -> IssuedInvite:
        """An invite link's secret for one person (the CLI, and a club's organisers)."""
        name = normalise_display_name(display_name)
        preset = None if login is None else normalise_login(login)
        async with self._pool.acquire() as connection, connection.transaction():
            return await self._issue(connection, name, preset, issued_by, claims=None)

    async def _issue(
        self,
        connection: asyncpg.Connection,
        name: str,
        preset: str | None,
        issued_by: str,
        *,
        claims: str | None,
    ) -> IssuedInvite:
        invite_id = uuid.uuid4().hex
        token = secrets.token_urlsafe(_INVITE_TOKEN_BYTES)
        expires_at: datetime = await connection.fetchval(
            """
            INSERT INTO account_invites
                   (invite_id, token_hash, display_name, login, issued_by, expires_at, claims)
            VALUES ($1, $2, $3, $4, $5, now() + $6::interval, $7) RETURNING expires_at
            """,
            invite_id, token_hash(token), name, preset, issued_by, self.settings.invite_lifetime, claims,
        )  # fmt: skip
        issued = InviteIssued(
            invite_id=invite_id,
            display_name=name,
            login=preset,
            issued_by=issued_by,
            expires_at=expires_at.astimezone(UTC).isoformat(),
            claims=claims,
        )
        await self._store.append(
            invite_stream(invite_id), [issued], expected_version=NO_STREAM, connection=connection
        )
        return IssuedInvite(
            invite_id=invite_id, token=token, display_name=name, login=preset, expires_at=expires_at
        )

    async def issue_claim(
        self, connection: asyncpg.Connection, account_id: str, *, issued_by: str
    ) -> IssuedInvite | None:
        """A new invite that claims ``account_id``, a member registered by name who has no login
        yet (on the caller's connection, in its transaction); None when the account has a login
        (or is no account). Links issued before stay good until one of them is used: the first
        accepted sets the login, and the others are refused as used."""
        row = await connection.fetchrow(
            "SELECT display_name FROM accounts WHERE account_id = $1 AND password_hash IS NULL FOR UPDATE",
            account_id,
        )
        if row is None:
            return None
        return await self._issue(connection, row["display_name"], None, issued_by, claims=account_id)

    async def register_unclaimed(
        self, connection: asyncpg.Connection, display_name: str, *, login: str | None, registered_by: str
    ) -> tuple[str, IssuedInvite]:
        """A member registered by name: an account nobody can log in as (no login name, no
        password) and the invite that claims it; on the caller's connection, inside its
        transaction (the club's role and facts are written beside it)."""
        name = normalise_display_name(display_name)
        preset = None if login is None else normalise_login(login)
        if preset is not None and await connection.fetchval(
            "SELECT 1 FROM accounts WHERE login_key = $1", login_key(preset)
        ):
            raise LoginNameTaken(preset)
        account_id = uuid.uuid4().hex
        await connection.execute(
            "INSERT INTO accounts (account_id, display_name) VALUES ($1, $2)", account_id, name
        )
        issued = await self._issue(connection, name, preset, registered_by, claims=account_id)
        registered = UnclaimedAccountRegistered(
            account_id=account_id, display_name=name, registered_by=registered_by, invite_id=issued.invite_id
        )
        await self._store.append(
            account_stream(account_id), [registered], expected_version=NO_STREAM, connection=connection
        )
        return account_id, issued

    async def renew_invite(
        self, connection: asyncpg.Connection, invite_id: str, *, renewed_by: str
    ) -> IssuedInvite | None:
        """A new secret (and a new expiry) for an invite not accepted yet; None once accepted.
        Only the hash of a secret is kept, so a lost answer's secret can only be replaced."""
        token = secrets.token_urlsafe(_INVITE_TOKEN_BYTES)
        row = await connection.fetchrow(
            """
            UPDATE account_invites SET token_hash = $2, expires_at = now() + $3::interval
             WHERE invite_id = $1 AND accepted_at IS NULL
            RETURNING display_name, login, expires_at
            """,
            invite_id, token_hash(token), self.settings.invite_lifetime,
        )  # fmt: skip
        if row is None:
            return None
        expires_at = row["expires_at"].astimezone(UTC).isoformat()
        renewed = InviteRenewed(invite_id=invite_id, renewed_by=renewed_by, expires_at=expires_at)
        await self._store.append(
            invite_stream(invite_id), [renewed], expected_version=ANY, connection=connection
        )
        return IssuedInvite(
            invite_id=invite_id,
            token=token,
            display_name=row["display_name"],
            login=row["login"],
            expires_at=row["expires_at"],
        )

    async def accept_invite(
        self, token: str, *, login: str | None, display_name: str | None, password: str | None
    ) -> Opened:
        """Create the invitee's account with their own password (or, for an invite that claims
        a member registered by name, set them on that account), and log them in."""
        invite = await self._usable_invite(token)
        preset: str | None = invite["login"]
        if preset is not None and login is not None and login_key(login) != login_key(preset):
            raise InvalidAccountInput("login", f"this invite's login name is set by the inviter: {preset}")
        if preset is None and login is None:
            raise InvalidAccountInput("login", "this invite lets you choose your login name: send `login`")
        if password is None:
            raise InvalidAccountInput(
                "password", "send `password` to set yours (or accept signed in, with your session, to join)"
            )
        chosen = preset if preset is not None else normalise_login(login or "")
        name = invite["display_name"] if display_name is None else normalise_display_name(display_name)
        check_password(password)
        password_hash = await self.passwords.hash(password)
        claims: str | None = invite["claims"]
        account_id = claims or uuid.uuid4().hex
        async with self._pool.acquire() as connection, connection.transaction():
            await self._usable_invite(token, connection=connection)  # again, locked: one use
            try:
                if claims is None:
                    await connection.execute(
                        """
                        INSERT INTO accounts (account_id, login, login_key, display_name, password_hash)
                        VALUES ($1, $2, $3, $4, $5)
                        """,
                        account_id, chosen, login_key(chosen), name, password_hash,
                    )  # fmt: skip
                else:
                    claimed = await connection.fetchval(
                        """
                        UPDATE accounts SET login = $2, login_key = $3, display_name = $4,
                               password_hash = $5, password_changed_at = now()
                         WHERE account_id = $1 AND password_hash IS NULL RETURNING 1
                        """,
                        account_id, chosen, login_key(chosen), name, password_hash,
                    )  # fmt: skip
                    if claimed is None:  # claimed through another invite meanwhile
                        raise InviteUsed()
            except asyncpg.UniqueViolationError:
                raise LoginNameTaken(chosen) from None
            await connection.execute(
                "UPDATE account_invites SET accepted_at = now(), account_id = $2 WHERE invite_id = $1",
                invite["invite_id"],
                account_id,
            )
            fact: AccountEvent = (
                AccountRegistered(
                    account_id=account_id, login=chosen, display_name=name, invite_id=invite["invite_id"]
                )
                if claims is None
                else AccountClaimed(
                    account_id=account_id, login=chosen, display_name=name, invite_id=invite["invite_id"]
                )
            )
            await self._store.append(
                account_stream(account_id),
                [fact],
                expected_version=NO_STREAM if claims is None else ANY,
                connection=connection,
            )
            await self._store.append(
                invite_stream(invite["invite_id"]),
                [InviteAccepted(invite_id=invite["invite_id"], account_id=account_id)],
                expected_version=ANY,
                connection=connection,
            )
            account = Account(account_id=account_id, login=chosen, display_name=name)
            return await self._open(connection, account)

    async def accept_invite_as(self, session: Session, token: str) -> Account:
        """An invite accepted by an existing account (signed in): no new account, no password;
        the club it came from makes the account a player there (services/clubs). An invite that
        claims a member registered by name is that member's only (``InviteClaimsAccount``)."""
        invite = await self._usable_invite(token)
        if invite["claims"] is not None:
            raise InviteClaimsAccount()
        async with self._pool.acquire() as connection, connection.transaction():
            await self._usable_invite(token, connection=connection)  # again, locked: one use
            row = await connection.fetchrow(
                "SELECT account_id, login, display_name FROM accounts WHERE account_id = $1",
                session.account_id,
            )
            if row is None:
                raise SessionRefused(UNKNOWN)
            await connection.execute(
                "UPDATE account_invites SET accepted_at = now(), account_id = $2 WHERE invite_id = $1",
                invite["invite_id"],
                session.account_id,
            )
            await self._store.append(
                invite_stream(invite["invite_id"]),
                [InviteAccepted(invite_id=invite["invite_id"], account_id=session.account_id)],
                expected_version=ANY,
                connection=connection,
            )
        await self.callers.forget([session.account_id])  # its club role is granted at the next request
        return Account(account_id=row["account_id"], login=row["login"], display_name=row["display_name"])

    async def _usable_invite(
        self, token: str, *, connection: asyncpg.Connection | None = None
    ) -> asyncpg.Record:
        if len(token) > MAX_SECRET_LENGTH:
            raise InviteNotFound()
        row = await (connection or self._pool).fetchrow(
            f"""
            SELECT invite_id, display_name, login, claims, accepted_at IS NOT NULL AS used,
                   expires_at <= now() AS expired
              FROM account_invites WHERE token_hash = $1 {"FOR UPDATE" if connection else ""}
            """,
            token_hash(token),
        )
        if row is None:
            raise InviteNotFound()
        if row["used"]:
            raise InviteUsed()
        if row["expired"]:
            raise InviteExpired()
        return row

    # -- logging in and out ---------------------------------------------------------------

    async def login(self, login: str, password: str, *, address: str) -> Opened:
        """A new session for the right password; ``LoginRefused`` in the same words whether the
        login name is unknown or the password wrong; ``LoginThrottled`` once the attempts of the
        window are spent. The attempt is counted (throttle.py) before anything is read or hashed,
        and given back only when it succeeds."""
        try:
            key: str | None = login_key(login)
        except InvalidAccountInput:
            key = None  # no account can have this name: refused as wrong, never looked up
        # a name no account can have (control characters, NUL) is counted under its digest
        counted = key if key is not None else hashlib.sha256(login.encode("utf-8", "replace")).hexdigest()
        reservation = None if self._throttle is None else await self._throttle.reserve(counted, address)
        row = (
            None
            if key is None
            else await self._pool.fetchrow(
                "SELECT account_id, login, display_name, password_hash FROM accounts WHERE login_key = $1",
                key,
            )
        )
        if row is None or row["password_hash"] is None:
            # no such login name, or (the check's belt and braces) an account not claimed yet:
            # refused as a wrong password would be, after the same work
            await self.passwords.verify_nobody(password[: 2 * MAX_SECRET_LENGTH])
            raise LoginRefused()
        if not await self.passwords.verify(row["password_hash"], password[: 2 * MAX_SECRET_LENGTH]):
            raise LoginRefused()
        if self._throttle is not None:
            await self._throttle.release(reservation)
        account = Account(account_id=row["account_id"], login=row["login"], display_name=row["display_name"])
        if self.passwords.needs_rehash(row["password_hash"]):
            # the parameters were raised since this hash was made: store one made with them (a
            # burst that leaves no hash slot leaves it to the next login, not this one refused)
            with contextlib.suppress(PasswordChecksBusy):
                new_hash = await self.passwords.hash(password)
                await self._pool.execute(
                    "UPDATE accounts SET password_hash = $2 WHERE account_id = $1 AND password_hash = $3",
                    account.account_id,
                    new_hash,
                    row["password_hash"],
                )
        async with self._pool.acquire() as connection:
            return await self._open(connection, account)

    async def _open(self, connection: asyncpg.Connection, account: Account) -> Opened:
        lifetime = self.settings.session_lifetime
        token = await open_session(connection, account.account_id, lifetime)
        expires_at = await connection.fetchval(
            "SELECT expires_at FROM account_sessions WHERE token_hash = $1", token_hash(token)
        )
        return Opened(account=account, token=token, expires_at=expires_at)

    async def authenticate(self, authorization: str | None) -> Session:
        """The session of an ``Authorization`` header, or ``SessionRefused`` saying why; a valid
        API token is ``SessionRequired`` (what needs a session cannot be done by a script)."""
        if is_api_token(bearer_token(authorization)):
            await self.api_token(authorization)
            raise SessionRequired()
        return await resolve_session(self._pool, authorization)

    async def identify(self, authorization: str | None) -> Session | ResolvedToken:
        """A session or an API token (``blt_…``), or ``SessionRefused`` saying what is wrong."""
        if is_api_token(bearer_token(authorization)):
            return await self.api_token(authorization)
        return await resolve_session(self._pool, authorization)

    async def api_token(self, authorization: str | None) -> ResolvedToken:
        token = bearer_token(authorization)
        if len(token) > MAX_SECRET_LENGTH:
            raise SessionRefused(API_TOKEN_UNKNOWN)
        return await resolve_token(self._pool, token)

    async def logout(self, session: Session) -> None:
        await revoke_session(self._pool, session)
        await self.callers.forget([session.account_id])

    async def logout_everywhere(self, session: Session) -> int:
        """Every session of the account ends, and every API token it has, and what else ends with
        them (``ends_with_sessions``): a token got with a stolen session must not outlive the
        logout meant to shut its thief out."""
        async with self._pool.acquire() as connection, connection.transaction():
            ended = await revoke_sessions(connection, session.account_id)
            await self._revoke_api_tokens(connection, session.account_id)
        await self.callers.forget([session.account_id])  # here at once, the other processes by Redis
        await self._end_the_rest(session.account_id)
        return ended

    async def _end_the_rest(self, account_id: str) -> None:
        for end in self.ends_with_sessions:
            await end(account_id)

    async def _revoke_api_tokens(self, connection: asyncpg.Connection, account_id: str) -> None:
        revoked = await revoke_all(connection, account_id)
        if revoked:
            await self._store.append(
                account_stream(account_id),
                [ApiTokenRevoked(token_id=token_id, account_id=account_id) for token_id in revoked],
                expected_version=ANY,
                connection=connection,
            )

    # -- API tokens (services/clubs checks their grants against the account's roles) ---------

    async def create_api_token(
        self, account_id: str, label: str, grants: list[TokenGrant], lifetime: timedelta
    ) -> tuple[str, ApiTokenInfo]:
        """A script token and its fact (``ApiTokenCreated``, without the secret)."""
        async with self._pool.acquire() as connection, connection.transaction():
            token, info = await create_token(connection, account_id, label, grants, lifetime)
            created = ApiTokenCreated(
                token_id=info.token_id, account_id=account_id, label=label, grants=grants,
                expires_at=info.expires_at.astimezone(UTC).isoformat(),
            )  # fmt: skip
            await self._store.append(
                account_stream(account_id), [created], expected_version=ANY, connection=connection
            )
        return token, info

    async def api_tokens(self, account_id: str) -> list[ApiTokenInfo]:
        return await list_tokens(self._pool, account_id)

    async def revoke_api_token(self, account_id: str, token_id: str) -> None:
        """Revoke one of the account's tokens (again: nothing changes); ``ApiTokenNotFound``
        when it has none with this id (another account's token is not told apart)."""
        async with self._pool.acquire() as connection, connection.transaction():
            revoked = await revoke_token(connection, account_id, token_id)
            if revoked is None:
                raise ApiTokenNotFound(token_id)
            if revoked:
                await self._store.append(
                    account_stream(account_id),
                    [ApiTokenRevoked(token_id=token_id, account_id=account_id)],
                    expected_version=ANY,
                    connection=connection,
                )
        await self.callers.forget([account_id])

    # -- the account itself -----------------------------------------------------------------

    async def account(self, session: Session | ResolvedToken) -> Account:
        """The caller's account, for a session or an API token (a script may ask who it is)."""
        row = await self._pool.fetchrow(
            "SELECT account_id, login, display_name FROM accounts WHERE account_id = $1", session.account_id
        )
        if row is None:  # a session outlives no account (the foreign key); say it like any bad token
            raise SessionRefused(UNKNOWN)
        return Account(account_id=row["account_id"], login=row["login"], display_name=row["display_name"])

    async def change_password(self, session: Session, old_password: str, new_password: str) -> None:
        """A new password, given the old one; every other session of the account is ended, and
        every API token, and what else ends with them (``ends_with_sessions``): a password is
        changed because somebody else may know it, and may have got a token with it."""
        check_password(new_password, "new_password")
        stored = await self._pool.fetchval(
            "SELECT password_hash FROM accounts WHERE account_id = $1", session.account_id
        )
        if stored is None or not await self.passwords.verify(stored, old_password[: 2 * MAX_SECRET_LENGTH]):
            raise WrongPassword()
        new_hash = await self.passwords.hash(new_password)
        async with self._pool.acquire() as connection, connection.transaction():
            await connection.execute(
                "UPDATE accounts SET password_hash = $2, password_changed_at = now() WHERE account_id = $1",
                session.account_id,
                new_hash,
            )
            await self._store.append(
                account_stream(session.account_id),
                [PasswordChanged(account_id=session.account_id)],
                expected_version=ANY,
                connection=connection,
            )
            await revoke_sessions(connection, session.account_id, keep=session.token_hash)
            await self._revoke_api_tokens(connection, session.account_id)
        await self.callers.forget([session.account_id])
        await self._end_the_rest(session.account_id)
