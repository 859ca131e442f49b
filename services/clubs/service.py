"""``ClubService``: founding clubs, granting and revoking roles, inviting members, and the
``Principal`` of a session.

Every write is one PostgreSQL transaction that locks the club's row, checks the caller's roles
as they are *then* (so two admins removing each other cannot both succeed and leave none),
appends the facts to ``clubroles-<id>`` and writes the read model beside them; a refusal stores
nothing. The only exception is an invite: the accounts' ``issue_invite`` commits on its own,
after every check passed, and the club's ``MemberInvited`` follows it.
"""

from __future__ import annotations

import unicodedata
import uuid
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Protocol

import asyncpg
import msgspec

from event_store import ANY, NO_STREAM, PostgresEventStore
from services.accounts.api_tokens import ApiTokenInfo, ResolvedToken
from services.accounts.errors import SessionRefused
from services.accounts.events import TokenGrant
from services.accounts.names import normalise_display_name, normalise_login
from services.accounts.service import AccountService, IssuedInvite
from services.accounts.sessions import UNKNOWN, Session, bearer_token, token_hash
from services.clubs.bounds import normalise_club_name
from services.clubs.errors import (
    AccountNotFound,
    ClubNotFound,
    GrantNotHeld,
    InvalidClubInput,
    LastAdmin,
    LoginExists,
    NotAMember,
    RoleNotHeld,
    ScorekeeperSeated,
)
from services.clubs.events import (
    CLUBS_MAPPER,
    ClubEvent,
    ClubFounded,
    LoginLinkSent,
    MemberInvited,
    MemberRegistered,
    RoleGranted,
    RoleRevoked,
    club_stream,
)
from services.clubs.roles import Grant, Principal, Role, require
from services.runtime.idempotency import command_fingerprint, is_retry


class Person(msgspec.Struct, frozen=True, kw_only=True):
    account_id: str
    display_name: str


class Member(msgspec.Struct, frozen=True, kw_only=True):
    account_id: str
    display_name: str
    roles: list[Grant]


class ClubSummary(msgspec.Struct, frozen=True, kw_only=True):
    club_id: str
    name: str
    founded_by: Person
    members: int


class ClubPage(msgspec.Struct, frozen=True, kw_only=True):
    clubs: list[ClubSummary]
    next_offset: int | None
    """The next page's ``offset``; None on the last page."""


class ClubDetail(msgspec.Struct, frozen=True, kw_only=True):
    club_id: str
    name: str
    founded_by: Person
    members: list[Member]


class MyClub(msgspec.Struct, frozen=True, kw_only=True):
    club_id: str
    name: str
    roles: list[Grant]


class ClubInvite(msgspec.Struct, frozen=True, kw_only=True):
    invite_id: str
    club_id: str
    token: str
    """The invite link's secret, shown this once; accepted at ``accept_path``."""
    accept_path: str
    display_name: str
    expires_at: datetime


class InviteLink(msgspec.Struct, frozen=True, kw_only=True):
    invite_id: str
    token: str
    """The link's secret, shown this once; the person accepts at ``accept_path``."""
    accept_path: str
    expires_at: datetime


class RegisteredMember(msgspec.Struct, frozen=True, kw_only=True):
    member_id: str
    """The account id: the member's id in every league and game."""
    display_name: str
    invite: InviteLink | None
    """None only when a retry finds the member has claimed the account already."""


class CreatedToken(msgspec.Struct, frozen=True, kw_only=True):
    token_id: str
    token: str
    """``blt_…``: the secret, shown this once (only its sha256 is kept)."""
    label: str
    grants: list[TokenGrant]
    expires_at: datetime


def _invite_link(issued: IssuedInvite) -> InviteLink:
    return InviteLink(
        invite_id=issued.invite_id,
        token=issued.token,
        accept_path=f"/accounts/invites/{issued.token}/accept",
        expires_at=issued.expires_at,
    )


def narrowed(principal: Principal, grants: Iterable[TokenGrant]) -> Principal:
    """An API token's principal: its grants that ``principal`` (the account now) holds."""
    roles: dict[str, list[Grant]] = {}
    for given in grants:
        try:
            role = Role(given.role)
        except ValueError:
            continue
        if principal.holds(given.club_id, role, given.game_id):
            grant = Grant(role=role, game_id=given.game_id)
            held = roles.setdefault(given.club_id, [])
            if grant not in held:
                held.append(grant)
    return Principal(
        account_id=principal.account_id,
        display_name=principal.display_name,
        roles={club: tuple(held) for club, held in roles.items()},
        api_token=True,
    )


def _registration(display_name: str, login: str | None, by: str) -> str:
    """The fingerprint of a registration by name (``services.runtime.idempotency``), made from
    what the club keeps of it (``club_registrations``)."""
    return command_fingerprint("RegisterMember", {"display_name": display_name, "login": login}, by)


def _grant(role: str, game_id: str) -> Grant:
    return Grant(role=Role(role), game_id=game_id or None)


async def display_names(pool: asyncpg.Pool | asyncpg.Connection, ids: Iterable[str]) -> dict[str, str]:
    """Account id → display name, for every id that is an account (an unknown id is absent, so
    a caller can fall back to a name of its own, e.g. an old game seat's)."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = await pool.fetch(
        "SELECT account_id, display_name FROM accounts WHERE account_id = ANY($1::text[])", wanted
    )
    return {row["account_id"]: row["display_name"] for row in rows}


async def scorekeepers_of(
    pool: asyncpg.Pool | asyncpg.Connection, club_id: str, game_id: str
) -> frozenset[str]:
    """The accounts holding ``scorekeeper`` for ``game_id`` (scoped to it) in ``club_id`` now."""
    rows = await pool.fetch(
        "SELECT account_id FROM club_roles WHERE club_id = $1 AND role = 'scorekeeper' AND game_id = $2",
        club_id,
        game_id,
    )
    return frozenset(r["account_id"] for r in rows)


async def is_member(pool: asyncpg.Pool | asyncpg.Connection, club_id: str, account_id: str) -> bool:
    """The account holds any role in the club (a scorekeeper of one game counts), or accepted
    the club's invite (its player role is granted at the invitee's next request: an organiser
    enrolling them before that must not be told they are nobody)."""
    found = await pool.fetchval(
        """
        SELECT 1 FROM club_roles WHERE club_id = $1 AND account_id = $2
        UNION ALL
        SELECT 1 FROM club_invites ci JOIN account_invites ai USING (invite_id)
         WHERE ci.club_id = $1 AND ai.account_id = $2 AND ci.settled_at IS NULL
        LIMIT 1
        """,
        club_id,
        account_id,
    )
    return found is not None


async def without_login(pool: asyncpg.Pool | asyncpg.Connection, ids: Iterable[str]) -> frozenset[str]:
    """The accounts among ``ids`` that nobody can sign in as yet: members registered by name who
    have not set up their login (``send_login_link`` makes them a link)."""
    wanted = sorted(set(ids))
    if not wanted:
        return frozenset()
    rows = await pool.fetch(
        "SELECT account_id FROM accounts WHERE account_id = ANY($1::text[]) AND password_hash IS NULL",
        wanted,
    )
    return frozenset(row["account_id"] for row in rows)


class TableSeats(Protocol):
    """Who sits at a league game's table (``services.league.schedule_guard.ScheduleGuard``,
    wired from above: the league sits above the clubs and is never imported here)."""

    async def seat_of(self, game_id: str, account_id: str) -> str | None:
        """Where ``account_id`` sits at ``game_id``'s table, in words; None when not seated."""


class ClubService:
    def __init__(
        self, pool: asyncpg.Pool, accounts: AccountService, *, tables: TableSeats | None = None
    ) -> None:
        self._pool = pool
        self._accounts = accounts
        self._tables = tables
        """Who sits at a game's table (None: no league here, so no table to ask about)."""
        self._store = PostgresEventStore(pool, mapper=CLUBS_MAPPER)

    # -- who is asking ------------------------------------------------------------------------

    async def principal(self, authorization: str | None) -> Principal:
        """The ``Principal`` of a bearer session token or API token (``SessionRefused`` saying
        why not). An API token's roles are its grants that the account still holds: a role
        revoked from the account is gone from its tokens at once.

        Cached per process by the token's sha256 (``AccountService.callers``): every write that
        changes what a token may do (a logout, a role granted or revoked here, an invite
        accepted) forgets the account when it commits, here at once, elsewhere through Redis
        or within the cache's TTL."""
        callers = self._accounts.callers
        digest = token_hash(bearer_token(authorization))
        cached: Principal | None = callers.get(digest)
        if cached is not None:
            return cached
        mark = callers.mark()
        identity = await self._accounts.identify(authorization)
        await self._settle_invites(identity.account_id)
        principal = await self._principal(identity.account_id)
        if isinstance(identity, ResolvedToken):
            principal = narrowed(principal, identity.grants)
        callers.put(mark, digest, identity.account_id, principal, identity.expires_at)
        return principal

    async def reader(self, authorization: str | None) -> Principal | None:
        """For a read that anyone may make of what is public (a public league): None for a
        request without an ``Authorization`` header (anonymous), else ``principal`` (a bad
        token is refused as anywhere else)."""
        if authorization is None:
            return None
        return await self.principal(authorization)

    async def session_principal(self, authorization: str | None) -> tuple[Session, Principal]:
        """As ``principal``, for what only a session may do (``SessionRequired`` for an API
        token): making API tokens."""
        session = await self._accounts.authenticate(authorization)
        await self._settle_invites(session.account_id)
        return session, await self._principal(session.account_id)

    async def _principal(self, account_id: str) -> Principal:
        name = await self._pool.fetchval(
            "SELECT display_name FROM accounts WHERE account_id = $1", account_id
        )
        if name is None:
            raise SessionRefused(UNKNOWN)
        rows = await self._pool.fetch(
            """
            SELECT club_id, role, game_id FROM club_roles WHERE account_id = $1
             ORDER BY club_id, role, game_id
            """,
            account_id,
        )
        roles: dict[str, list[Grant]] = {}
        for row in rows:
            roles.setdefault(row["club_id"], []).append(_grant(row["role"], row["game_id"]))
        return Principal(
            account_id=account_id,
            display_name=name,
            roles={club: tuple(grants) for club, grants in roles.items()},
        )

    # -- founding, reading ----------------------------------------------------------------------

    async def found(self, principal: Principal, name: str) -> ClubDetail:
        """A new club; the founder is its admin."""
        club_name = normalise_club_name(name)
        club_id = uuid.uuid4().hex
        async with self._pool.acquire() as connection, connection.transaction():
            await connection.execute(
                "INSERT INTO clubs (club_id, name, founded_by) VALUES ($1, $2, $3)",
                club_id, club_name, principal.account_id,
            )  # fmt: skip
            await self._insert_role(connection, club_id, principal.account_id, Role.ADMIN, None)
            await self._append(
                connection,
                club_id,
                [
                    ClubFounded(club_id=club_id, name=club_name, founded_by=principal.account_id),
                    RoleGranted(
                        club_id=club_id, account_id=principal.account_id, role=Role.ADMIN,
                        granted_by=principal.account_id,
                    ),
                ],
                new=True,
            )  # fmt: skip
        await self._accounts.callers.forget([principal.account_id])  # its new admin role
        return await self.club(principal, club_id, refreshed=True)

    async def clubs(self, limit: int, offset: int) -> ClubPage:
        """Every club's name, founder and member count (no member's name: those are the club's)."""
        rows = await self._pool.fetch(
            """
            SELECT c.club_id, c.name, c.founded_by, a.display_name,
                   (SELECT count(DISTINCT r.account_id) FROM club_roles r
                     WHERE r.club_id = c.club_id) AS members
              FROM clubs c JOIN accounts a ON a.account_id = c.founded_by
             ORDER BY lower(c.name), c.club_id LIMIT $1 OFFSET $2
            """,
            limit + 1, offset,
        )  # fmt: skip
        clubs = [
            ClubSummary(
                club_id=r["club_id"],
                name=r["name"],
                founded_by=Person(account_id=r["founded_by"], display_name=r["display_name"]),
                members=r["members"],
            )
            for r in rows[:limit]
        ]
        return ClubPage(clubs=clubs, next_offset=offset + limit if len(rows) > limit else None)

    async def club(self, principal: Principal, club_id: str, *, refreshed: bool = False) -> ClubDetail:
        """The club with its members; only its own members may see them."""
        row = await self._club_row(self._pool, club_id)
        if not refreshed:
            require(principal, club_id)
            await self._settle_invites(club_id=club_id)
        members = await self._pool.fetch(
            """
            SELECT r.account_id, a.display_name, r.role, r.game_id
              FROM club_roles r JOIN accounts a USING (account_id)
             WHERE r.club_id = $1 ORDER BY lower(a.display_name), r.account_id, r.role, r.game_id
            """,
            club_id,
        )
        by_account: dict[str, Member] = {}
        for m in members:
            member = by_account.setdefault(
                m["account_id"], Member(account_id=m["account_id"], display_name=m["display_name"], roles=[])
            )
            member.roles.append(_grant(m["role"], m["game_id"]))
        return ClubDetail(
            club_id=club_id,
            name=row["name"],
            founded_by=Person(account_id=row["founded_by"], display_name=row["founder_name"]),
            members=list(by_account.values()),
        )

    async def my_clubs(self, principal: Principal) -> list[MyClub]:
        if not principal.roles:
            return []
        names = dict(
            await self._pool.fetch(
                "SELECT club_id, name FROM clubs WHERE club_id = ANY($1::text[])", list(principal.roles)
            )
        )
        return sorted(
            (
                MyClub(club_id=club_id, name=names[club_id], roles=list(grants))
                for club_id, grants in principal.roles.items()
            ),
            key=lambda c: (c.name.lower(), c.club_id),
        )

    # -- roles ----------------------------------------------------------------------------------

    async def grant(
        self, principal: Principal, club_id: str, account_id: str, role: Role, game_id: str | None
    ) -> bool:
        """Grant ``role`` (admin only); False when the account held it already (nothing stored)."""
        if game_id is not None and role is not Role.SCOREKEEPER:
            raise InvalidClubInput("game_id", "only a scorekeeper is scoped to a game; leave game_id out")
        async with self._pool.acquire() as connection, connection.transaction():
            await self._locked_club(connection, club_id, principal, Role.ADMIN)
            exists = await connection.fetchval("SELECT 1 FROM accounts WHERE account_id = $1", account_id)
            if exists is None:
                raise AccountNotFound(account_id)
            if role is Role.SCOREKEEPER and game_id is not None:
                await self._refuse_seated(connection, "account_id", account_id, game_id)
            if not await self._insert_role(connection, club_id, account_id, role, game_id):
                return False
            granted = RoleGranted(
                club_id=club_id, account_id=account_id, role=role, game_id=game_id,
                granted_by=principal.account_id,
            )  # fmt: skip
            await self._append(connection, club_id, [granted])
        await self._accounts.callers.forget([account_id])
        return True

    async def grant_scorekeeper(
        self, principal: Principal, club_id: str, account_id: str, game_id: str
    ) -> bool:
        """Make a member the scorekeeper of one table game: whoever schedules the game (an admin
        or an organiser) names them. False when they held it already (nothing stored)."""
        async with self._pool.acquire() as connection, connection.transaction():
            await self._locked_club(connection, club_id, principal, Role.ADMIN, Role.ORGANISER)
            if not await is_member(connection, club_id, account_id):
                raise AccountNotFound(account_id)
            await self._refuse_seated(connection, "scorekeeper", account_id, game_id)
            if not await self._insert_role(connection, club_id, account_id, Role.SCOREKEEPER, game_id):
                return False
            granted = RoleGranted(
                club_id=club_id, account_id=account_id, role=Role.SCOREKEEPER, game_id=game_id,
                granted_by=principal.account_id,
            )  # fmt: skip
            await self._append(connection, club_id, [granted])
        await self._accounts.callers.forget([account_id])
        return True

    async def _refuse_seated(
        self, connection: asyncpg.Connection, field: str, account_id: str, game_id: str
    ) -> None:
        """``ScorekeeperSeated`` when the account sits at ``game_id``'s table: its scorekeeper
        sees every role and hand there, so none of its players keeps its score."""
        where = None if self._tables is None else await self._tables.seat_of(game_id, account_id)
        if where is not None:
            name = (await display_names(connection, [account_id])).get(account_id, account_id)
            raise ScorekeeperSeated(field, f"{name} ({where})", game_id)

    async def revoke(self, principal: Principal, club_id: str, account_id: str, role: Role) -> None:
        """End every grant of ``role`` to the account (admin only); the last admin stays."""
        async with self._pool.acquire() as connection, connection.transaction():
            await self._locked_club(connection, club_id, principal, Role.ADMIN)
            if role is Role.ADMIN:
                admins = await connection.fetch(
                    "SELECT account_id FROM club_roles WHERE club_id = $1 AND role = 'admin'", club_id
                )
                if [a["account_id"] for a in admins] == [account_id]:
                    raise LastAdmin(club_id)
            deleted = await connection.fetch(
                "DELETE FROM club_roles WHERE club_id = $1 AND account_id = $2 AND role = $3 RETURNING 1",
                club_id, account_id, role.value,
            )  # fmt: skip
            if not deleted:
                raise RoleNotHeld(club_id, account_id, role)
            revoked = RoleRevoked(
                club_id=club_id, account_id=account_id, role=role, revoked_by=principal.account_id
            )
            await self._append(connection, club_id, [revoked])
        await self._accounts.callers.forget([account_id])

    # -- invites ----------------------------------------------------------------------------------

    async def invite(
        self, principal: Principal, club_id: str, display_name: str, login: str | None
    ) -> ClubInvite:
        """An invite link (admin or organiser); the account its acceptance creates is a player here."""
        name = normalise_display_name(display_name)
        async with self._pool.acquire() as connection:
            await self._locked_club(connection, club_id, principal, Role.ADMIN, Role.ORGANISER, lock=False)
        issued = await self._accounts.issue_invite(name, login=login, issued_by=principal.account_id)
        async with self._pool.acquire() as connection, connection.transaction():
            await connection.execute(
                "INSERT INTO club_invites (invite_id, club_id, invited_by) VALUES ($1, $2, $3)",
                issued.invite_id, club_id, principal.account_id,
            )  # fmt: skip
            invited = MemberInvited(
                club_id=club_id,
                invite_id=issued.invite_id,
                display_name=name,
                invited_by=principal.account_id,
            )
            await self._append(connection, club_id, [invited])
        return ClubInvite(
            invite_id=issued.invite_id,
            club_id=club_id,
            token=issued.token,
            accept_path=f"/accounts/invites/{issued.token}/accept",
            display_name=name,
            expires_at=issued.expires_at,
        )

    async def _settle_invites(self, account_id: str | None = None, club_id: str | None = None) -> None:
        """Grant the player role for every accepted club invite not granted yet, of one account
        (at its every request) or of one club (before its members are read). The invite is
        accepted at the accounts' route, which knows nothing of clubs: this is where its
        acceptance becomes a ``RoleGranted``, once (the row's ``settled_at``, under its lock).

        A request that finds the rows locked waits for the one settling them (not SKIP LOCKED):
        it would otherwise answer without the role while the other commits it — a browser's
        first two requests after joining (GET /me and GET /me/clubs at once) showed no club.
        The locks are taken in invite order, so two settlings never deadlock."""
        where = "ci.settled_at IS NULL AND ai.account_id IS NOT NULL AND " + (
            "ai.account_id = $1" if account_id is not None else "ci.club_id = $1"
        )
        key = account_id if account_id is not None else club_id
        pending = await self._pool.fetchval(
            f"SELECT 1 FROM club_invites ci JOIN account_invites ai USING (invite_id) WHERE {where} LIMIT 1",
            key,
        )
        if pending is None:
            return
        settled: list[str] = []
        async with self._pool.acquire() as connection, connection.transaction():
            rows = await connection.fetch(
                f"""
                SELECT ci.invite_id, ci.club_id, ci.invited_by, ai.account_id
                  FROM club_invites ci JOIN account_invites ai USING (invite_id)
                 WHERE {where}
                 ORDER BY ci.invite_id FOR UPDATE OF ci
                """,
                key,
            )
            for row in rows:
                await connection.execute(
                    "UPDATE club_invites SET settled_at = now() WHERE invite_id = $1", row["invite_id"]
                )
                invitee = row["account_id"]
                if await self._insert_role(connection, row["club_id"], invitee, Role.PLAYER, None):
                    granted = RoleGranted(
                        club_id=row["club_id"], account_id=invitee, role=Role.PLAYER,
                        granted_by=row["invited_by"], invite_id=row["invite_id"],
                    )  # fmt: skip
                    await self._append(connection, row["club_id"], [granted])
                    settled.append(invitee)
        await self._accounts.callers.forget(settled)

    # -- members registered by name -------------------------------------------------------------

    async def register_member(
        self,
        principal: Principal,
        club_id: str,
        display_name: str,
        login: str | None,
        command_id: str | None,
    ) -> tuple[RegisteredMember, bool]:
        """A person registered by name (admin or organiser): an account nobody logs in as yet,
        a player here at once, and the invite with which the person claims it (sets a login
        name and password on that very account). True when made now; False for a retry of the
        same ``command_id`` (the same name and login by the same caller; anything else under it
        is ``CommandIdReused``), which answers the same member with a new secret for its invite
        (the first answer's was lost; the old link stops working), or no invite once claimed."""
        name = normalise_display_name(display_name)
        preset = None if login is None else normalise_login(login)
        async with self._pool.acquire() as connection, connection.transaction():
            await self._locked_club(connection, club_id, principal, Role.ADMIN, Role.ORGANISER)
            if command_id is not None:
                before = await connection.fetchrow(
                    """
                    SELECT r.account_id, r.invite_id, r.display_name, r.login, r.registered_by,
                           a.display_name AS shown
                      FROM club_registrations r JOIN accounts a USING (account_id)
                     WHERE r.club_id = $1 AND r.command_id = $2
                    """,
                    club_id, command_id,
                )  # fmt: skip
                if before is not None:
                    # the one rule of every league and club command id: the same registration
                    # by the same caller is a retry; anything else under the id is refused
                    spent = _registration(before["display_name"], before["login"], before["registered_by"])
                    asked = _registration(name, preset, principal.account_id)
                    is_retry(
                        command_id, f"club {club_id}", asked, stored=spent,
                        stored_actor=before["registered_by"], actor=principal.account_id,
                    )  # fmt: skip
                    renewed = await self._accounts.renew_invite(
                        connection, before["invite_id"], renewed_by=principal.account_id
                    )
                    member = RegisteredMember(
                        member_id=before["account_id"],
                        display_name=before["shown"],
                        invite=None if renewed is None else _invite_link(renewed),
                    )
                    return member, False
            account_id, issued = await self._accounts.register_unclaimed(
                connection, name, login=preset, registered_by=principal.account_id
            )
            await connection.execute(
                """
                INSERT INTO club_registrations
                       (club_id, command_id, account_id, invite_id, display_name, login, registered_by)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                """,
                club_id, command_id or uuid.uuid4().hex, account_id, issued.invite_id, name, preset,
                principal.account_id,
            )  # fmt: skip
            # the role is granted now, so the invite's acceptance has nothing left to settle
            await connection.execute(
                """
                INSERT INTO club_invites (invite_id, club_id, invited_by, settled_at)
                VALUES ($1, $2, $3, now())
                """,
                issued.invite_id, club_id, principal.account_id,
            )  # fmt: skip
            await self._insert_role(connection, club_id, account_id, Role.PLAYER, None)
            facts: list[ClubEvent] = [
                MemberRegistered(
                    club_id=club_id, account_id=account_id, display_name=name,
                    invite_id=issued.invite_id, registered_by=principal.account_id,
                ),
                RoleGranted(
                    club_id=club_id, account_id=account_id, role=Role.PLAYER,
                    granted_by=principal.account_id, invite_id=issued.invite_id,
                ),
            ]  # fmt: skip
            await self._append(connection, club_id, facts)
        return RegisteredMember(member_id=account_id, display_name=name, invite=_invite_link(issued)), True

    async def send_login_link(self, principal: Principal, club_id: str, member_id: str) -> RegisteredMember:
        """A new link with which ``member_id``, a member of the club with no login (registered by
        name), sets up his login on his own account (admin or organiser of the club, as of now).
        ``NotAMember`` for an account that holds no role here, ``LoginExists`` for one with a
        login. The link's secret is in the answer only: no event, no log line carries it."""
        async with self._pool.acquire() as connection, connection.transaction():
            await self._locked_club(connection, club_id, principal, Role.ADMIN, Role.ORGANISER)
            if not await is_member(connection, club_id, member_id):
                raise NotAMember(club_id, member_id)
            issued = await self._accounts.issue_claim(connection, member_id, issued_by=principal.account_id)
            if issued is None:
                name = (await display_names(connection, [member_id])).get(member_id, member_id)
                raise LoginExists(name)
            sent = LoginLinkSent(
                club_id=club_id,
                account_id=member_id,
                invite_id=issued.invite_id,
                sent_by=principal.account_id,
            )
            await self._append(connection, club_id, [sent])
        link = _invite_link(issued)
        return RegisteredMember(member_id=member_id, display_name=issued.display_name, invite=link)

    # -- API tokens -----------------------------------------------------------------------------

    async def create_token(
        self, principal: Principal, label: str, grants: Sequence[TokenGrant], expires_in_days: int
    ) -> CreatedToken:
        """A script token of the caller's carrying ``grants``, each a role the caller holds now
        (``GrantNotHeld`` naming the first that is not); the secret is in this answer only."""
        text = unicodedata.normalize("NFC", label).strip()
        if not text:
            raise InvalidClubInput("label", "a token's label has at least one visible character")
        wanted: list[TokenGrant] = []
        for grant in grants:
            role = Role(grant.role)
            if grant.game_id is not None and role is not Role.SCOREKEEPER:
                raise InvalidClubInput("grants", "only a scorekeeper is scoped to a game; leave game_id out")
            if not principal.holds(grant.club_id, role, grant.game_id):
                raise GrantNotHeld(grant.club_id, role.value, grant.game_id)
            normal = TokenGrant(club_id=grant.club_id, role=role.value, game_id=grant.game_id)
            if normal not in wanted:
                wanted.append(normal)
        token, info = await self._accounts.create_api_token(
            principal.account_id, text, wanted, timedelta(days=expires_in_days)
        )
        return CreatedToken(
            token_id=info.token_id,
            token=token,
            label=info.label,
            grants=info.grants,
            expires_at=info.expires_at,
        )

    async def tokens(self, principal: Principal) -> list[ApiTokenInfo]:
        return await self._accounts.api_tokens(principal.account_id)

    async def revoke_token(self, principal: Principal, token_id: str) -> None:
        await self._accounts.revoke_api_token(principal.account_id, token_id)

    # -- storage ----------------------------------------------------------------------------------

    async def _club_row(self, connection: asyncpg.Connection | asyncpg.Pool, club_id: str) -> asyncpg.Record:
        row = await connection.fetchrow(
            """
            SELECT c.name, c.founded_by, a.display_name AS founder_name
              FROM clubs c JOIN accounts a ON a.account_id = c.founded_by WHERE c.club_id = $1
            """,
            club_id,
        )
        if row is None:
            raise ClubNotFound(club_id)
        return row

    async def _locked_club(
        self,
        connection: asyncpg.Connection,
        club_id: str,
        principal: Principal,
        *roles: Role,
        lock: bool = True,
    ) -> None:
        """The club exists, and the caller holds one of ``roles`` there as of now: read under
        the club row's lock, so concurrent role changes of one club run one after another.
        The principal must hold it too: an API token's principal holds only its grants."""
        found = await connection.fetchval(
            f"SELECT 1 FROM clubs WHERE club_id = $1 {'FOR UPDATE' if lock else ''}", club_id
        )
        if found is None:
            raise ClubNotFound(club_id)
        rows = await connection.fetch(
            "SELECT role, game_id FROM club_roles WHERE club_id = $1 AND account_id = $2",
            club_id, principal.account_id,
        )  # fmt: skip
        current = Principal(
            account_id=principal.account_id,
            display_name=principal.display_name,
            roles={club_id: tuple(_grant(r["role"], r["game_id"]) for r in rows)} if rows else {},
        )
        require(principal, club_id, *roles)
        require(current, club_id, *roles)

    async def _insert_role(
        self, connection: asyncpg.Connection, club_id: str, account_id: str, role: Role, game_id: str | None
    ) -> bool:
        inserted = await connection.fetchval(
            """
            INSERT INTO club_roles (club_id, account_id, role, game_id) VALUES ($1, $2, $3, $4)
            ON CONFLICT DO NOTHING RETURNING 1
            """,
            club_id, account_id, role.value, game_id or "",
        )  # fmt: skip
        return inserted is not None

    async def _append(
        self, connection: asyncpg.Connection, club_id: str, events: Sequence[ClubEvent], *, new: bool = False
    ) -> None:
        expected = NO_STREAM if new else ANY
        stream = club_stream(club_id)
        await self._store.append(stream, list(events), expected_version=expected, connection=connection)
