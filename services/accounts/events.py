"""Account facts, in the past tense.

Streams: ``account-<account_id>`` holds ``AccountRegistered`` and ``PasswordChanged``;
``invite-<invite_id>`` holds ``InviteIssued`` and ``InviteAccepted``. No event carries a
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


class PasswordChanged(AccountEvent, frozen=True, kw_only=True):
    """The owner set a new password (every other session of theirs was revoked with it)."""

    account_id: str


class InviteIssued(AccountEvent, frozen=True, kw_only=True):
    invite_id: str
    display_name: str
    login: str | None
    """Preset by the inviter; chosen by the invitee when None."""
    issued_by: str
    expires_at: str
    """ISO 8601, UTC."""


class InviteAccepted(AccountEvent, frozen=True, kw_only=True):
    invite_id: str
    account_id: str


ACCOUNT_EVENTS: tuple[type[AccountEvent], ...] = (
    AccountRegistered,
    PasswordChanged,
    InviteIssued,
    InviteAccepted,
)

ACCOUNTS_MAPPER = Mapper()
for _cls in ACCOUNT_EVENTS:
    ACCOUNTS_MAPPER.register(_cls, schema_version=_cls.VERSION)


def account_stream(account_id: str) -> str:
    return f"account-{account_id}"


def invite_stream(invite_id: str) -> str:
    return f"invite-{invite_id}"
