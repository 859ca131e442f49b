"""The REST edge of clubs: thin handlers, one service call each (docs/permissions.md).

Every route needs a session token (``Authorization: Bearer …``, 401 otherwise); a club's invite
is accepted at the accounts' ``/accounts/invites/{token}/accept`` (whose secret the access log
redacts). ``caller`` is the session's ``Principal``; who may do
what is the service's ``require`` (403 naming the role and the club). Ids in paths and bodies
and every name are bounded (400 naming the field).
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, delete, get, post
from litestar.datastructures import State
from litestar.di import Provide
from litestar.params import JSONBody, Parameter

from services.accounts.api_tokens import ApiTokenInfo
from services.accounts.events import TokenGrant
from services.accounts.http import SECURED
from services.clubs.bounds import GameId, Identifier, Name, check_id, check_page
from services.clubs.errors import ClubInputOutOfBounds
from services.clubs.roles import Principal, Role
from services.clubs.service import (
    ClubDetail,
    ClubInvite,
    ClubPage,
    ClubService,
    CreatedToken,
    MyClub,
    RegisteredMember,
)

_LOGIN_MAX = 100
MAX_GRANTS = 50
MAX_TOKEN_DAYS = 366
DEFAULT_TOKEN_DAYS = 90


class FoundClub(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: Name


class InviteMember(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    display_name: Name
    login: Annotated[str, msgspec.Meta(max_length=_LOGIN_MAX)] | None = None
    """Preset for the invitee; they choose it on accepting when left out."""


class RegisterMember(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    display_name: Name
    login: Annotated[str, msgspec.Meta(max_length=_LOGIN_MAX)] | None = None
    """Preset for the person; they choose it on claiming the account when left out."""
    command_id: Identifier | None = None
    """Idempotency: a retry with the same id answers the same member (200)."""


class TokenGrantRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    club_id: Identifier
    role: Role
    game_id: GameId | None = None
    """A scorekeeper's one table game."""


class CreateToken(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    label: Name
    grants: Annotated[list[TokenGrantRequest], msgspec.Meta(max_length=MAX_GRANTS)] = []
    """Club roles the token carries, each one you hold now; none: it acts only as you (your own
    seats), with no club role."""
    expires_in_days: Annotated[int, msgspec.Meta(ge=1, le=MAX_TOKEN_DAYS)] = DEFAULT_TOKEN_DAYS


class GrantRole(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    account_id: Identifier
    role: Role
    game_id: GameId | None = None
    """Scopes a scorekeeper to one table game."""


class Granted(msgspec.Struct, frozen=True, kw_only=True):
    club_id: str
    account_id: str
    role: Role
    game_id: str | None
    granted: bool
    """False when the account held the role already (nothing changed)."""


async def provide_clubs(state: State) -> ClubService:
    clubs: ClubService = state.clubs
    return clubs


async def provide_caller(request: Request[Any, Any, Any], clubs: ClubService) -> Principal:
    return await clubs.principal(request.headers.get("authorization"))


async def provide_reader(request: Request[Any, Any, Any], clubs: ClubService) -> Principal | None:
    """The caller of a read that anyone may make of what is public: None when anonymous
    (``ClubService.reader``)."""
    return await clubs.reader(request.headers.get("authorization"))


async def provide_owner(request: Request[Any, Any, Any], clubs: ClubService) -> Principal:
    """The caller, signed in with a session (an API token is 403 ``session-required``)."""
    _, principal = await clubs.session_principal(request.headers.get("authorization"))
    return principal


class ClubController(Controller):
    path = "/clubs"
    tags = ["clubs"]

    @post(operation_id="foundClub", summary="Found a club; you become its admin", security=SECURED)
    async def found(self, data: JSONBody[FoundClub], caller: Principal, clubs: ClubService) -> ClubDetail:
        return await clubs.found(caller, data.name)

    @get(operation_id="clubs", summary="Clubs by name, a page at a time", security=SECURED)
    async def list_clubs(
        self,
        caller: Principal,
        clubs: ClubService,
        limit: Annotated[int, Parameter(query="limit", ge=1, le=100)] = 50,
        offset: Annotated[int, Parameter(query="offset", ge=0, le=1_000_000)] = 0,
    ) -> ClubPage:
        check_page(limit, offset)
        return await clubs.clubs(limit, offset)

    @get(
        "/{club_id:str}",
        operation_id="club",
        summary="A club and its members (its members only)",
        security=SECURED,
    )
    async def club(self, club_id: str, caller: Principal, clubs: ClubService) -> ClubDetail:
        return await clubs.club(caller, check_id("club_id", club_id))

    @post(
        "/{club_id:str}/invites",
        operation_id="inviteMember",
        summary="Invite a person to the club (admin or organiser); accepting makes them a player",
        security=SECURED,
    )
    async def invite(
        self, club_id: str, data: JSONBody[InviteMember], caller: Principal, clubs: ClubService
    ) -> ClubInvite:
        return await clubs.invite(caller, check_id("club_id", club_id), data.display_name, data.login)

    @post(
        "/{club_id:str}/members",
        operation_id="registerMember",
        summary="Register a member by name (admin or organiser): a player at once, with an invite "
        "link with which they set their own login name and password; 200 for a retried command_id",
        security=SECURED,
    )
    async def register(
        self, club_id: str, data: JSONBody[RegisterMember], caller: Principal, clubs: ClubService
    ) -> Response[RegisteredMember]:
        member, made = await clubs.register_member(
            caller, check_id("club_id", club_id), data.display_name, data.login, data.command_id
        )
        return Response(member, status_code=201 if made else 200)

    @post(
        "/{club_id:str}/members/{member_id:str}/login-link",
        operation_id="sendLoginLink",
        summary="A new link with which a member who has no login sets one up on his own account "
        "(admin or organiser); single use, expiring",
        security=SECURED,
    )
    async def login_link(
        self, club_id: str, member_id: str, caller: Principal, clubs: ClubService
    ) -> Response[RegisteredMember]:
        member = await clubs.send_login_link(
            caller, check_id("club_id", club_id), check_id("member_id", member_id)
        )
        return Response(member, status_code=201)

    @post(
        "/{club_id:str}/roles",
        operation_id="grantRole",
        summary="Grant a role in the club (admin only); granting a held role changes nothing",
        security=SECURED,
    )
    async def grant(
        self, club_id: str, data: JSONBody[GrantRole], caller: Principal, clubs: ClubService
    ) -> Response[Granted]:
        club = check_id("club_id", club_id)
        granted = await clubs.grant(caller, club, data.account_id, data.role, data.game_id)
        body = Granted(
            club_id=club, account_id=data.account_id, role=data.role, game_id=data.game_id, granted=granted
        )
        return Response(body, status_code=201 if granted else 200)

    @delete(
        "/{club_id:str}/roles/{account_id:str}/{role:str}",
        operation_id="revokeRole",
        summary="Revoke a role in the club (admin only); the last admin cannot be removed",
        security=SECURED,
    )
    async def revoke(
        self, club_id: str, account_id: str, role: str, caller: Principal, clubs: ClubService
    ) -> None:
        club, account = check_id("club_id", club_id), check_id("account_id", account_id)
        await clubs.revoke(caller, club, account, role_of(role))


def role_of(text: str) -> Role:
    try:
        return Role(text)
    except ValueError:
        raise ClubInputOutOfBounds("role", "a role is one of " + ", ".join(r.value for r in Role)) from None


class MyClubsController(Controller):
    path = "/me/clubs"
    tags = ["clubs"]

    @get(operation_id="myClubs", summary="Your clubs and your roles in each", security=SECURED)
    async def my_clubs(self, caller: Principal, clubs: ClubService) -> list[MyClub]:
        return await clubs.my_clubs(caller)


class TokenController(Controller):
    """Script tokens: made, listed and revoked with a session only (a token cannot make one)."""

    path = "/me/tokens"
    tags = ["accounts"]
    dependencies = {"owner": Provide(provide_owner)}

    @post(
        operation_id="createApiToken",
        summary="Create an API token for scripts (`blt_…`, shown once) carrying roles you hold",
        security=SECURED,
    )
    async def create(self, data: JSONBody[CreateToken], owner: Principal, clubs: ClubService) -> CreatedToken:
        grants = [TokenGrant(club_id=g.club_id, role=g.role.value, game_id=g.game_id) for g in data.grants]
        return await clubs.create_token(owner, data.label, grants, data.expires_in_days)

    @get(operation_id="apiTokens", summary="Your API tokens in force (never their secrets)", security=SECURED)
    async def list_tokens(self, owner: Principal, clubs: ClubService) -> list[ApiTokenInfo]:
        return await clubs.tokens(owner)

    @delete(
        "/{token_id:str}",
        operation_id="revokeApiToken",
        summary="Revoke one of your API tokens; it is refused at once everywhere",
        security=SECURED,
    )
    async def revoke(self, token_id: str, owner: Principal, clubs: ClubService) -> None:
        await clubs.revoke_token(owner, check_id("token_id", token_id))


CLUB_CONTROLLERS = (ClubController, MyClubsController, TokenController)
