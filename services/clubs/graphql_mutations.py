"""Clubs, roles, members and API tokens as GraphQL mutations: one per REST route of ``http.py``,
the same bodies and the same refusals.

Each input is REST's body plus the ids REST takes from its path. It is checked by decoding it
into REST's very request Struct (the same bounds: 400 naming the field, as ``input.displayName``),
then one ``ClubService`` call with the signed-in caller (the ``Authorization`` header's session
or API token; making an API token needs a session). A refusal is a GraphQL error carrying
REST's problem details (services/api/graphql_problems.py).
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime
from typing import Any, TypeVar

import msgspec
import strawberry
from strawberry.types import Info

from services.accounts.errors import SessionRefused
from services.accounts.events import TokenGrant
from services.accounts.sessions import MISSING
from services.clubs.bounds import ID_PATTERN, ID_RULE, NAME_PATTERN, NAME_RULE, check_id
from services.clubs.errors import ClubInputOutOfBounds
from services.clubs.http import CreateToken, FoundClub, GrantRole, InviteMember, RegisterMember, role_of
from services.clubs.roles import Principal
from services.clubs.service import ClubDetail, ClubService, InviteLink

R = TypeVar("R")


# -- inputs -----------------------------------------------------------------------------------


@strawberry.input(description="`POST /clubs`: you become the club's admin.")
class FoundClubInput:
    name: str


@strawberry.input(description="`POST /clubs/{clubId}/invites` (admin or organiser).")
class InviteMemberInput:
    club_id: str
    display_name: str
    login: str | None = strawberry.field(
        default=None, description="Preset for the invitee; they choose it on accepting when left out."
    )


@strawberry.input(description="`POST /clubs/{clubId}/members` (admin or organiser): a member by name.")
class RegisterMemberInput:
    club_id: str
    display_name: str
    login: str | None = strawberry.field(
        default=None,
        description="Preset for the person; they choose it on claiming the account if left out."
    )
    command_id: str | None = strawberry.field(
        default=None, description="Idempotency: a retry answers the same member with a new invite link."
    )


@strawberry.input(
    description="`POST /clubs/{clubId}/members/{memberId}/login-link` (admin or organiser): a new link "
    "with which a member who has no login sets one up on his own account."
)
class SendLoginLinkInput:
    club_id: str
    member_id: str


@strawberry.input(description="`POST /clubs/{clubId}/roles` (admin only).")
class GrantRoleInput:
    club_id: str
    account_id: str
    role: str = strawberry.field(description="`admin`, `organiser`, `referee`, `scorekeeper` or `player`.")
    game_id: str | None = strawberry.field(
        default=None, description="Scopes a scorekeeper to one table game."
    )


@strawberry.input(description="`DELETE /clubs/{clubId}/roles/{accountId}/{role}` (admin only).")
class RevokeRoleInput:
    club_id: str
    account_id: str
    role: str


@strawberry.input(description="A club role an API token carries; one you hold now.")
class ApiTokenGrantInput:
    club_id: str
    role: str
    game_id: str | None = None


@strawberry.input(description="`POST /me/tokens` (with a session, not with an API token).")
class CreateApiTokenInput:
    label: str
    grants: list[ApiTokenGrantInput] = strawberry.field(
        default_factory=list, description="None: the token acts only as you (your own seats)."
    )
    expires_in_days: int | None = strawberry.field(default=None, description="1 to 366; 90 when left out.")


@strawberry.input(description="`DELETE /me/tokens/{tokenId}` (with a session).")
class RevokeApiTokenInput:
    token_id: str


# -- answers ----------------------------------------------------------------------------------


@strawberry.type(description="A person, by name (the id for links).")
class ClubPerson:
    account_id: strawberry.ID
    display_name: str


@strawberry.type(description="A role held in a club; a scorekeeper's may be scoped to one game.")
class ClubGrant:
    role: str
    game_id: str | None


@strawberry.type(description="A member of a club with their roles there.")
class ClubMemberRoles:
    account_id: strawberry.ID
    display_name: str
    roles: list[ClubGrant]


@strawberry.type(description="A club with its members, as its members see it.")
class ClubWithMembers:
    club_id: strawberry.ID
    name: str
    founded_by: ClubPerson
    members: list[ClubMemberRoles]

    @classmethod
    def of(cls, club: ClubDetail) -> ClubWithMembers:
        return cls(
            club_id=strawberry.ID(club.club_id),
            name=club.name,
            founded_by=ClubPerson(
                account_id=strawberry.ID(club.founded_by.account_id),
                display_name=club.founded_by.display_name,
            ),
            members=[
                ClubMemberRoles(
                    account_id=strawberry.ID(m.account_id),
                    display_name=m.display_name,
                    roles=[ClubGrant(role=g.role.value, game_id=g.game_id) for g in m.roles],
                )
                for m in club.members
            ],
        )


@strawberry.type(description="An invite link: its secret is shown this once.")
class ClubInviteLink:
    invite_id: strawberry.ID
    token: str
    accept_path: str = strawberry.field(description="`POST` here to accept (REST).")
    expires_at: datetime

    @classmethod
    def of(cls, link: InviteLink) -> ClubInviteLink:
        return cls(
            invite_id=strawberry.ID(link.invite_id),
            token=link.token,
            accept_path=link.accept_path,
            expires_at=link.expires_at,
        )


@strawberry.type(description="A member registered by name: a player at once, claimed through the invite.")
class RegisteredClubMember:
    member_id: strawberry.ID
    display_name: str
    invite: ClubInviteLink | None = strawberry.field(
        description="Null only when a retry finds the member has claimed the account already."
    )
    new: bool = strawberry.field(description="False when this command id was applied before.")


@strawberry.type(description="A role granted (or held already: `granted` false, nothing changed).")
class ClubRoleGrant:
    club_id: strawberry.ID
    account_id: strawberry.ID
    role: str
    game_id: str | None
    granted: bool


@strawberry.type(description="A role revoked: every grant of it to the account in the club ended.")
class ClubRoleRevoked:
    club_id: strawberry.ID
    account_id: strawberry.ID
    role: str


@strawberry.type(description="A club role an API token carries.")
class ApiTokenGrant:
    club_id: strawberry.ID
    role: str
    game_id: str | None


@strawberry.type(description="A new API token: `token` (`blt_…`) is shown this once.")
class CreatedApiToken:
    token_id: strawberry.ID
    token: str
    label: str
    grants: list[ApiTokenGrant]
    expires_at: datetime


@strawberry.type(description="A revoked API token: refused at once everywhere.")
class RevokedApiToken:
    token_id: strawberry.ID


# -- plumbing ---------------------------------------------------------------------------------

_AT = re.compile(r" - at `\$([^`]*)`$")
_RULES = {ID_PATTERN: ID_RULE, NAME_PATTERN: NAME_RULE}
_REGEX = re.compile(r"matching regex '(.*)'", re.DOTALL)


def _explain(message: str) -> str:
    def words(match: re.Match[str]) -> str:
        rule = _RULES.get(match.group(1).encode().decode("unicode_escape")) or _RULES.get(match.group(1))
        return match.group(0) if rule is None else f"with {rule}"

    return _REGEX.sub(words, message)


def _camel(path: str) -> str:
    return re.sub(r"_([a-z])", lambda m: m.group(1).upper(), path)


def _given(data: Any) -> Any:
    """The fields given: a null stands for a field left out, as REST's default."""
    if isinstance(data, dict):
        return {k: _given(v) for k, v in data.items() if v is not None}
    if isinstance(data, list):
        return [_given(v) for v in data]
    return data


def _request(given: Any, kind: type[R], *path: str) -> tuple[dict[str, str], R]:
    """(the path ids, checked as REST checks its path, and REST's body) from a GraphQL input;
    ``ClubInputOutOfBounds`` naming the field (400)."""
    data = _given(dataclasses.asdict(given))
    ids = {name: check_id(_camel(f"input.{name}"), data.pop(name)) for name in path if name in data}
    try:
        return ids, msgspec.convert(data, kind, strict=True)
    except msgspec.ValidationError as error:
        message = str(error)
        at = _AT.search(message)
        field = "input" if at is None else "input" + _camel(at.group(1))
        raise ClubInputOutOfBounds(field, _explain(_AT.sub("", message))) from None


def _clubs(info: Info) -> ClubService:
    clubs: ClubService = info.context["clubs"]
    return clubs


def _authorization(info: Info) -> str | None:
    request = info.context.get("request")
    if request is None:
        raise SessionRefused(MISSING)
    header: str | None = request.headers.get("authorization")
    return header


async def _caller(info: Info) -> Principal:
    return await _clubs(info).principal(_authorization(info))


async def _owner(info: Info) -> Principal:
    _, principal = await _clubs(info).session_principal(_authorization(info))
    return principal


# -- the mutations ----------------------------------------------------------------------------


@strawberry.type
class ClubMutation:
    @strawberry.mutation(description="Found a club, as `POST /clubs`; you become its admin.")
    async def found_club(self, info: Info, input: FoundClubInput) -> ClubWithMembers:
        caller = await _caller(info)
        _, body = _request(input, FoundClub)
        return ClubWithMembers.of(await _clubs(info).found(caller, body.name))

    @strawberry.mutation(
        description="Invite a person to a club (admin or organiser), as `POST /clubs/{clubId}/invites`."
    )
    async def invite_member(self, info: Info, input: InviteMemberInput) -> ClubInviteLink:
        caller = await _caller(info)
        ids, body = _request(input, InviteMember, "club_id")
        invite = await _clubs(info).invite(caller, ids["club_id"], body.display_name, body.login)
        return ClubInviteLink(
            invite_id=strawberry.ID(invite.invite_id),
            token=invite.token,
            accept_path=invite.accept_path,
            expires_at=invite.expires_at,
        )

    @strawberry.mutation(
        description="Register a member by name (admin or organiser), as `POST /clubs/{clubId}/members`: "
        "a player at once; the invite lets them set their own login name and password."
    )
    async def register_member(self, info: Info, input: RegisterMemberInput) -> RegisteredClubMember:
        caller = await _caller(info)
        ids, body = _request(input, RegisterMember, "club_id")
        member, new = await _clubs(info).register_member(
            caller, ids["club_id"], body.display_name, body.login, body.command_id
        )
        return RegisteredClubMember(
            member_id=strawberry.ID(member.member_id),
            display_name=member.display_name,
            invite=None if member.invite is None else ClubInviteLink.of(member.invite),
            new=new,
        )

    @strawberry.mutation(
        description="A new single-use, expiring link with which a member who has no login (registered by "
        "name) sets one up on his own account (admin or organiser), as "
        "`POST /clubs/{clubId}/members/{memberId}/login-link`."
    )
    async def send_login_link(self, info: Info, input: SendLoginLinkInput) -> RegisteredClubMember:
        caller = await _caller(info)
        club_id = check_id("input.clubId", input.club_id)
        member_id = check_id("input.memberId", input.member_id)
        member = await _clubs(info).send_login_link(caller, club_id, member_id)
        return RegisteredClubMember(
            member_id=strawberry.ID(member.member_id),
            display_name=member.display_name,
            invite=None if member.invite is None else ClubInviteLink.of(member.invite),
            new=True,
        )

    @strawberry.mutation(description="Grant a role in a club (admin only), as `POST /clubs/{clubId}/roles`.")
    async def grant_role(self, info: Info, input: GrantRoleInput) -> ClubRoleGrant:
        caller = await _caller(info)
        ids, body = _request(input, GrantRole, "club_id")
        granted = await _clubs(info).grant(
            caller, ids["club_id"], body.account_id, body.role, body.game_id
        )
        return ClubRoleGrant(
            club_id=strawberry.ID(ids["club_id"]),
            account_id=strawberry.ID(body.account_id),
            role=body.role.value,
            game_id=body.game_id,
            granted=granted,
        )

    @strawberry.mutation(
        description="Revoke a role in a club (admin only), as "
        "`DELETE /clubs/{clubId}/roles/{accountId}/{role}`."
    )
    async def revoke_role(self, info: Info, input: RevokeRoleInput) -> ClubRoleRevoked:
        caller = await _caller(info)
        club_id = check_id("input.clubId", input.club_id)
        account_id = check_id("input.accountId", input.account_id)
        role = role_of(input.role)
        await _clubs(info).revoke(caller, club_id, account_id, role)
        return ClubRoleRevoked(
            club_id=strawberry.ID(club_id), account_id=strawberry.ID(account_id), role=role.value
        )

    @strawberry.mutation(
        description="Create an API token for scripts, as `POST /me/tokens` (a session only): it carries "
        "roles you hold now."
    )
    async def create_api_token(self, info: Info, input: CreateApiTokenInput) -> CreatedApiToken:
        owner = await _owner(info)
        _, body = _request(input, CreateToken)
        grants = [TokenGrant(club_id=g.club_id, role=g.role.value, game_id=g.game_id) for g in body.grants]
        created = await _clubs(info).create_token(owner, body.label, grants, body.expires_in_days)
        return CreatedApiToken(
            token_id=strawberry.ID(created.token_id),
            token=created.token,
            label=created.label,
            grants=[
                ApiTokenGrant(club_id=strawberry.ID(g.club_id), role=g.role, game_id=g.game_id)
                for g in created.grants
            ],
            expires_at=created.expires_at,
        )

    @strawberry.mutation(description="Revoke one of your API tokens, as `DELETE /me/tokens/{tokenId}`.")
    async def revoke_api_token(self, info: Info, input: RevokeApiTokenInput) -> RevokedApiToken:
        owner = await _owner(info)
        token_id = check_id("input.tokenId", input.token_id)
        await _clubs(info).revoke_token(owner, token_id)
        return RevokedApiToken(token_id=strawberry.ID(token_id))
