"""Account facts, in the past tense.

Streams: ``account-<account_id>`` holds ``AccountRegistered`` (or, for a member registered by
name, ``UnclaimedAccountRegistered`` and later ``AccountClaimed``), ``PasswordChanged`` and the
``ApiTokenCreated``/``ApiTokenRevoked`` of its script tokens; ``invite-<invite_id>`` holds
``InviteIssued``, ``InviteRenewed`` and ``InviteAccepted``. No event carries a
password, a password hash or a bearer secret (those stay in the accounts' tables, see
migrations/0001_accounts.sql): events are read by every consumer and may be exported.
Sessions are rows, not events: a login is not a fact the league folds, and a stream per login
would grow without end.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from event_store import Mapper


class AccountEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag=True):
    VERSION: ClassVar[int] = 1


class AccountRegistered(AccountEvent, frozen=True, kw_only=True):
    account_id: str
    login: str
    display_name: str
    invite_id: str
    """The invite it was made through."""


class UnclaimedAccountRegistered(AccountEvent, frozen=True, kw_only=True):
    """A member registered by name: an account with a display name, no login name and no
    password (nobody can log in as it) until its invite is accepted."""

    account_id: str
    display_name: str
    registered_by: str
    invite_id: str
    """The invite that claims it."""


class AccountClaimed(AccountEvent, frozen=True, kw_only=True):
    """The person behind an unclaimed account accepted its invite: it has a login name and a
    password now; its id (the member id) is unchanged."""

    account_id: str
    login: str
    display_name: str
    invite_id: str


class TokenGrant(msgspec.Struct, frozen=True, kw_only=True):
    """One club role an API token carries (services/clubs checks the role's name)."""

    club_id: str
    role: str
    game_id: str | None = None


class ApiTokenCreated(AccountEvent, frozen=True, kw_only=True):
    """A script token (never its secret): what it may do and until when."""

    token_id: str
    account_id: str
    label: str
    grants: list[TokenGrant]
    expires_at: str


class ApiTokenRevoked(AccountEvent, frozen=True, kw_only=True):
    token_id: str
    account_id: str


class PasswordChanged(AccountEvent, frozen=True, kw_only=True):
    """The owner set a new password (every other session of theirs was revoked with it, and
    every API token, each with its own ``ApiTokenRevoked``)."""

    account_id: str


class InviteIssued(AccountEvent, frozen=True, kw_only=True):
    invite_id: str
    display_name: str
    login: str | None
    """Preset by the inviter; chosen by the invitee when None."""
    issued_by: str
    expires_at: str
    """ISO 8601, UTC."""
    claims: str | None = None
    """The unclaimed account (a member registered by name) that accepting it completes."""


class InviteRenewed(AccountEvent, frozen=True, kw_only=True):
    """A new secret for an invite not accepted yet (the old link stops working): the answer
    to a retried registration, whose first secret was never seen."""

    invite_id: str
    renewed_by: str
    expires_at: str


class InviteAccepted(AccountEvent, frozen=True, kw_only=True):
    invite_id: str
    account_id: str


ACCOUNT_EVENTS: tuple[type[AccountEvent], ...] = (
    AccountRegistered,
    PasswordChanged,
    InviteIssued,
    InviteAccepted,
    UnclaimedAccountRegistered,
    AccountClaimed,
    InviteRenewed,
    ApiTokenCreated,
    ApiTokenRevoked,
)

ACCOUNTS_MAPPER = Mapper()
for _cls in ACCOUNT_EVENTS:
    ACCOUNTS_MAPPER.register(_cls, schema_version=_cls.VERSION)


def account_stream(account_id: str) -> str:
    return f"account-{account_id}"


def invite_stream(invite_id: str) -> str:
    return f"invite-{invite_id}"
