"""The accounts' refusals, split by cause; ``services/api/errors.py`` maps each to its status.

No message says whether an account exists: a wrong password and an unknown login name are the
same ``LoginRefused``, and a refused session names only what is wrong with the token.
"""

from __future__ import annotations


class AccountError(Exception):
    """Every refusal of the accounts component."""


class InvalidAccountInput(AccountError, ValueError):
    """A login name, display name or password outside its rule (nothing is stored)."""

    def __init__(self, field: str, rule: str) -> None:
        super().__init__(f"`{field}`: {rule}")
        self.field = field
        self.rule = rule


class LoginNameTaken(AccountError):
    def __init__(self, login: str) -> None:
        super().__init__(f"the login name {login!r} is taken (login names ignore case); choose another")
        self.field = "login"


class InviteNotFound(AccountError):
    def __init__(self) -> None:
        super().__init__("no invite has this token; ask the organiser for a new link")


class InviteUsed(AccountError):
    def __init__(self) -> None:
        super().__init__("this invite was used already; an invite makes one account")


class InviteExpired(AccountError):
    def __init__(self) -> None:
        super().__init__("this invite has expired; ask the organiser for a new link")


class LoginRefused(AccountError):
    """Wrong password or unknown login name: the same words for both."""

    def __init__(self) -> None:
        super().__init__("the login name or the password is wrong")


class WrongPassword(AccountError):
    """The old password given to change it is wrong (the caller is logged in: no secret is told)."""

    def __init__(self) -> None:
        super().__init__("the old password is wrong")
        self.field = "old_password"


class SessionRefused(AccountError):
    """No valid session token: missing, unknown, expired or revoked (the reason is the token's,
    never the account's)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class LoginThrottled(AccountError):
    """Too many failed logins for one login name or from one address."""

    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__(f"too many failed logins {what}; retry in {retry_after} s")
        self.retry_after = retry_after


class PasswordChecksBusy(AccountError):
    """Every password-hash slot of this process stayed taken (a burst of logins): refused
    rather than queued without bound (503, ``Retry-After``)."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(
            f"the server is busy checking other passwords; nothing was checked or changed, retry in "
            f"{retry_after} s"
        )
        self.retry_after = retry_after


class InviteClaimsAccount(AccountError):
    """An invite made for a member registered by name: only its holder, signing up through
    it, may claim that account; another account cannot take it (409)."""

    def __init__(self) -> None:
        super().__init__(
            "this invite is for a member registered by name: open it without signing in and set "
            "that member's login name and password; it cannot join another account"
        )


class SessionRequired(AccountError):
    """An API token was used where only a logged-in session may act (403): making API tokens,
    changing the password, logging out, accepting an invite."""

    def __init__(self) -> None:
        super().__init__(
            "an API token cannot do this; use a session token (POST /sessions) to create API tokens, "
            "change your password, log out or accept an invite"
        )


class ApiTokenNotFound(AccountError):
    """No API token of the caller's has this id (another account's is not told apart)."""

    def __init__(self, token_id: str) -> None:
        super().__init__(f"you have no API token with the id {token_id!r}")
        self.field = "token_id"
