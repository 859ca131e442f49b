"""``ClubService``: founding clubs, granting and revoking roles, inviting members, and the
``Principal`` of a session.

Every write is one PostgreSQL transaction that locks the club's row, checks the caller's roles
as they are *then* (so two admins removing each other cannot both succeed and leave none),
appends the facts to ``clubroles-<id>`` and writes the read model beside them; a refusal stores
nothing. The only exception is an invite: the accounts' ``issue_invite`` commits on its own,
after every check passed, and the club's ``MemberInvited`` follows it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

import asyncpg
import msgspec

from event_store import ANY, NO_STREAM, PostgresEventStore
from services.accounts.errors import SessionRefused
from services.accounts.names import normalise_display_name
from services.accounts.service import AccountService
from services.accounts.sessions import UNKNOWN, Session
from services.clubs.bounds import normalise_club_name
from services.clubs.errors import AccountNotFound, ClubNotFound, InvalidClubInput, LastAdmin, RoleNotHeld
from services.clubs.events import (
    CLUBS_MAPPER,
    ClubEvent,
    ClubFounded,
    MemberInvited,
    RoleGranted,
    RoleRevoked,
    club_stream,
)
from services.clubs.roles import Grant, Principal, Role, require


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


def _grant(role: str, game_id: str) -> Grant:
    return Grant(role=Role(role), game_id=game_id or None)


class ClubService:
    def __init__(self, pool: asyncpg.Pool, accounts: AccountService) -> None:
        self._pool = pool
        self._accounts = accounts
        self._store = PostgresEventStore(pool, mapper=CLUBS_MAPPER)

    # -- who is asking ------------------------------------------------------------------------

    async def principal(self, authorization: str | None) -> Principal:
        """The ``Principal`` of a bearer session token (``SessionRefused`` saying why not)."""
        session = await self._accounts.authenticate(authorization)
        await self._settle_invites(session.account_id)
        return await self._principal(session)

    async def _principal(self, session: Session) -> Principal:
        name = await self._pool.fetchval(
            "SELECT display_name FROM accounts WHERE account_id = $1", session.account_id
        )
        if name is None:
            raise SessionRefused(UNKNOWN)
        rows = await self._pool.fetch(
            """
            SELECT club_id, role, game_id FROM club_roles WHERE account_id = $1
             ORDER BY club_id, role, game_id
            """,
            session.account_id,
        )
        roles: dict[str, list[Grant]] = {}
        for row in rows:
            roles.setdefault(row["club_id"], []).append(_grant(row["role"], row["game_id"]))
        return Principal(
            account_id=session.account_id,
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
            if not await self._insert_role(connection, club_id, account_id, role, game_id):
                return False
            granted = RoleGranted(
                club_id=club_id, account_id=account_id, role=role, game_id=game_id,
                granted_by=principal.account_id,
            )  # fmt: skip
            await self._append(connection, club_id, [granted])
        return True

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
        acceptance becomes a ``RoleGranted``, once (the row's ``settled_at``, under its lock)."""
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
        async with self._pool.acquire() as connection, connection.transaction():
            rows = await connection.fetch(
                f"""
                SELECT ci.invite_id, ci.club_id, ci.invited_by, ai.account_id
                  FROM club_invites ci JOIN account_invites ai USING (invite_id)
                 WHERE {where}
                 ORDER BY ci.invite_id FOR UPDATE OF ci SKIP LOCKED
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
        the club row's lock, so concurrent role changes of one club run one after another."""
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
