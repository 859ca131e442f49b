"""The REST edge of accounts: thin handlers, one service call each (docs/accounts.md).

Public: accepting an invite and logging in. Everything else needs ``Authorization: Bearer
<session token>``; the ``session`` dependency resolves it (401 naming what is wrong with the
token). Bodies are bounded by their types (400); the rules of names and passwords are the
service's (422 naming the field and the rule).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, delete, get, post, put
from litestar.datastructures import State
from litestar.params import Body, JSONBody

from services.accounts.errors import InvalidAccountInput
from services.accounts.service import Account, AccountService, Opened
from services.accounts.sessions import Session

BEARER = "BearerAuth"
SECURED: list[dict[str, list[str]]] = [{BEARER: []}]
"""The OpenAPI ``security`` of every route that needs a session token."""

_FIELD_MAX = 1_000
"""What no login name, display name or password ever needs: longer is refused as not fitting
the schema (400) before anything reads it; the rules themselves answer 422."""
Text = Annotated[str, msgspec.Meta(max_length=_FIELD_MAX)]


class AcceptInvite(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    password: Text | None = None
    """Required to create an account (or claim a member registered by name); left out when an
    existing account accepts, signed in with its session."""
    login: Text | None = None
    """Required unless the inviter set it; then it may be left out (or be the same)."""
    display_name: Text | None = None
    """The invite's own when left out."""


class LoginRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    login: Text
    password: Text


class ChangePassword(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    old_password: Text
    new_password: Text


class SessionOpened(msgspec.Struct, frozen=True, kw_only=True):
    token: str
    """The session's bearer token, shown this once."""
    expires_at: datetime
    account: Account


class InviteAccepted(msgspec.Struct, frozen=True, kw_only=True):
    """An invite accepted by an existing account: no new account and no new session."""

    account: Account


def _opened(opened: Opened) -> SessionOpened:
    return SessionOpened(token=opened.token, expires_at=opened.expires_at, account=opened.account)


async def provide_accounts(state: State) -> AccountService:
    accounts: AccountService = state.accounts
    return accounts


async def provide_session(request: Request[Any, Any, Any], accounts: AccountService) -> Session:
    return await accounts.authenticate(request.headers.get("authorization"))


def client_address(request: Request[Any, Any, Any]) -> str:
    return request.client.host if request.client is not None else "unknown"


class InviteController(Controller):
    path = "/accounts/invites"
    tags = ["accounts"]

    @post(
        "/{token:str}/accept",
        operation_id="acceptInvite",
        summary="Accept an invite link: with your own login name and password (a new account, or the "
        "member registered for you; 201, logged in), or signed in with your session and no password "
        "(your existing account joins; 200)",
        security=[{BEARER: []}, {}],  # the session is optional: it says which way is meant
    )
    async def accept(
        self,
        request: Request[Any, Any, Any],
        token: str,
        accounts: AccountService,
        data: Annotated[AcceptInvite | None, Body()] = None,
    ) -> Response[SessionOpened | InviteAccepted]:
        given = data or AcceptInvite()
        authorization = request.headers.get("authorization")
        if authorization is not None:
            for field in ("password", "login", "display_name"):
                if getattr(given, field) is not None:
                    raise InvalidAccountInput(
                        field, "signed in, you accept with your own account: leave out `" + field + "`"
                    )
            session = await accounts.authenticate(authorization)
            account = await accounts.accept_invite_as(session, token)
            return Response(InviteAccepted(account=account), status_code=200)
        opened = await accounts.accept_invite(
            token, login=given.login, display_name=given.display_name, password=given.password
        )
        return Response(_opened(opened), status_code=201)


class SessionController(Controller):
    path = "/sessions"
    tags = ["accounts"]

    @post(operation_id="login", summary="Log in: a session token for a login name and password")
    async def login(
        self, request: Request[Any, Any, Any], data: JSONBody[LoginRequest], accounts: AccountService
    ) -> SessionOpened:
        return _opened(await accounts.login(data.login, data.password, address=client_address(request)))

    @delete("/current", operation_id="logout", summary="Log out: end this session", security=SECURED)
    async def logout(self, session: Session, accounts: AccountService) -> None:
        await accounts.logout(session)

    @delete(
        operation_id="logoutEverywhere",
        summary="End every session of your account and revoke its API tokens",
        security=SECURED,
    )
    async def logout_everywhere(self, session: Session, accounts: AccountService) -> None:
        await accounts.logout_everywhere(session)


class MeController(Controller):
    path = "/me"
    tags = ["accounts"]

    @get(operation_id="me", summary="Your account (a session or an API token)", security=SECURED)
    async def me(self, request: Request[Any, Any, Any], accounts: AccountService) -> Account:
        return await accounts.account(await accounts.identify(request.headers.get("authorization")))

    @put(
        "/password",
        operation_id="changePassword",
        status_code=204,
        summary="Change your password (the old one is required); ends your other sessions and revokes "
        "your API tokens",
        security=SECURED,
    )
    async def change_password(
        self, data: JSONBody[ChangePassword], session: Session, accounts: AccountService
    ) -> None:
        await accounts.change_password(session, data.old_password, data.new_password)


ACCOUNT_CONTROLLERS = (InviteController, SessionController, MeController)
