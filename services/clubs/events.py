"""Club facts, in the past tense, in the stream ``clubroles-<club_id>``.

Not the league's ``club-<id>`` stream: the league folds its own ``ClubFounded`` there with its own
mapper, and a foreign event in that stream would stop its replay. No event carries a token or
an invite's secret (the invite's own facts are in ``invite-<id>``, services/accounts).
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from event_store import Mapper


class ClubEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag=True):
    VERSION: ClassVar[int] = 1


class ClubFounded(ClubEvent, frozen=True, kw_only=True):
    """Founded by an account, which became its admin (a ``RoleGranted`` follows)."""

    club_id: str
    name: str
    founded_by: str


class RoleGranted(ClubEvent, frozen=True, kw_only=True):
    club_id: str
    account_id: str
    role: str
    game_id: str | None = None
    """A scorekeeper's one table game; None for every other role (and an unscoped scorekeeper)."""
    granted_by: str
    invite_id: str | None = None
    """The club invite this player role came from, when it did."""


class RoleRevoked(ClubEvent, frozen=True, kw_only=True):
    """Every grant of ``role`` to the account in this club ended (a scorekeeper's every game)."""

    club_id: str
    account_id: str
    role: str
    revoked_by: str


class MemberInvited(ClubEvent, frozen=True, kw_only=True):
    """An admin or organiser invited a person; accepting the invite makes them a player."""

    club_id: str
    invite_id: str
    display_name: str
    invited_by: str


class MemberRegistered(ClubEvent, frozen=True, kw_only=True):
    """An admin or organiser registered a person by name: an account nobody logs in as yet
    (services/accounts ``UnclaimedAccountRegistered``), a player here at once (a
    ``RoleGranted`` follows), claimed by the person through the invite ``invite_id``."""

    club_id: str
    account_id: str
    display_name: str
    invite_id: str
    registered_by: str


class LoginLinkSent(ClubEvent, frozen=True, kw_only=True):
    """An admin or organiser made a new link with which a member who has no login (registered
    by name) sets one up: the invite ``invite_id`` claims that member's account (single use,
    expiring; its secret is in no event)."""

    club_id: str
    account_id: str
    invite_id: str
    sent_by: str


CLUB_EVENTS: tuple[type[ClubEvent], ...] = (
    ClubFounded,
    RoleGranted,
    RoleRevoked,
    MemberInvited,
    MemberRegistered,
    LoginLinkSent,
)

CLUBS_MAPPER = Mapper()
for _cls in CLUB_EVENTS:
    CLUBS_MAPPER.register(_cls, schema_version=_cls.VERSION)


def club_stream(club_id: str) -> str:
    return f"clubroles-{club_id}"
