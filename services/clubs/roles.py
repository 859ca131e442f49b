"""Roles, the ``Principal`` a session speaks for, and the one authorisation check.

``require(principal, club_id, *roles)`` is what every club-scoped write calls: it passes when the
caller holds one of ``roles`` in that club and raises ``RoleRequired`` (403) naming the roles and
the club otherwise. Roles in one club say nothing about another.
"""

from __future__ import annotations

from enum import StrEnum

import msgspec

from services.clubs.errors import RoleRequired


class Role(StrEnum):
    ADMIN = "admin"
    ORGANISER = "organiser"
    REFEREE = "referee"
    SCOREKEEPER = "scorekeeper"
    PLAYER = "player"


ROLES: tuple[Role, ...] = tuple(Role)


class Grant(msgspec.Struct, frozen=True, kw_only=True):
    role: Role
    game_id: str | None = None
    """A scorekeeper's one table game (None: every role but a scoped scorekeeper)."""


class Principal(msgspec.Struct, frozen=True, kw_only=True):
    """Who a session token speaks for, and what they hold in each club they are in."""

    account_id: str
    display_name: str
    roles: dict[str, tuple[Grant, ...]]
    """club id → the grants there; a club the account holds nothing in is absent."""
    api_token: bool = False
    """True when an API token speaks (``roles`` are then its grants the account still holds):
    it acts for its account only through those grants and its account's own seats, so what an
    account may do as a game's creator is not a token's (docs/permissions.md, "Game routes")."""

    def holds(self, club_id: str, role: Role, game_id: str | None = None) -> bool:
        """``role`` in ``club_id``; a scorekeeper scoped to a game holds it for that game only
        (``game_id`` None asks for the role unscoped)."""
        for grant in self.roles.get(club_id, ()):
            if grant.role is role and (grant.game_id is None or grant.game_id == game_id):
                return True
        return False

    def is_member(self, club_id: str) -> bool:
        return bool(self.roles.get(club_id))


def require(principal: Principal, club_id: str, *roles: Role, game_id: str | None = None) -> None:
    """Pass if ``principal`` holds one of ``roles`` in ``club_id`` (any role when none is
    named), else ``RoleRequired``."""
    if not roles:
        if principal.is_member(club_id):
            return
    elif any(principal.holds(club_id, role, game_id) for role in roles):
        return
    raise RoleRequired(club_id, tuple(str(r) for r in roles))
