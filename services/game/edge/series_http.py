"""The REST edge of UA5 legacy series (``services/game/application/series.py``).

``POST /series`` opens a series and its first game (a club's organiser or admin);
``GET /series/{id}`` its games, decisions, standing and the question it waits for;
``GET /series?club=…`` a club's series; ``POST /series/{id}/decisions`` a decision (the
seated player, or at a table the scorekeeper) or a table draw (the scorekeeper);
``POST /series/{id}/close`` closes it (organiser or admin; online, the seed is revealed);
``GET /series/{id}/audit`` audits it as a whole. Thin: one service call per handler.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from litestar import Controller, get, post
from litestar.params import JSONBody, Parameter

from services.clubs.errors import RoleRequired
from services.clubs.roles import Role as ClubRole
from services.game.application.lifecycle import GameMode
from services.game.application.series import (
    MAX_PAGE,
    NewSeries,
    SeriesRefused,
    SeriesService,
    SeriesState,
    SeriesView,
)
from services.game.application.service import TableSeat
from services.game.audit.series import SeriesAudit, audit_series
from services.game.edge.bounds import (
    ID_PATTERN,
    MAX_ID_LENGTH,
    MAX_OFFSET,
    RULES,
    TEXT_PATTERN,
    CommandId,
    Identifier,
    Name,
)
from services.game.edge.gateway import AuthenticationRequired, Forbidden, GameGateway
from services.game.edge.http import TOKEN_REQUIRED, MemberIn, SeatIn
from services.game.edge.tokens import Principal, TokenKind
from services.game.rules.dice.undead.legacy import (
    CharacterDrawn,
    ChooseCharacter,
    KeepCharacter,
    LegacyEntry,
    NextSheriff,
    RolesDrawn,
    SheriffDrawn,
)
from services.game.rules.dice.vocabulary import CharacterId, PlayerId, Role
from services.game.rules.ruleset import RulesetError, ruleset_of

ORGANISING = (ClubRole.ORGANISER, ClubRole.ADMIN)
KEEPING_SCORE = (ClubRole.SCOREKEEPER, ClubRole.ORGANISER, ClubRole.ADMIN)


class OpenSeriesRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    command_id: CommandId
    series_id: Identifier
    club_id: Identifier
    mode: GameMode
    modules: Annotated[list[Annotated[str, msgspec.Meta(max_length=8)]], msgspec.Meta(max_length=10)] = []
    """UA5 must be among them."""
    members: Annotated[list[MemberIn], msgspec.Meta(max_length=8)] | None = None
    seats: Annotated[list[SeatIn], msgspec.Meta(max_length=8)] | None = None


class DecisionRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    command_id: CommandId
    kind: Literal["next_sheriff", "keep_character", "choose_character", "sheriff", "character", "roles"]
    seat: Identifier
    """The deciding seat (``p1``…); for ``sheriff`` the seat drawn; for ``roles`` the new Sheriff's."""
    sheriff: Identifier | None = None
    keep: bool | None = None
    character: Name | None = None
    roles: Annotated[list[Annotated[str, msgspec.Meta(max_length=20)]], msgspec.Meta(max_length=8)] | None = (
        None
    )

    def entry(self) -> LegacyEntry:
        player = PlayerId(self.seat)
        try:
            match self.kind:
                case "next_sheriff":
                    return NextSheriff(player=player, sheriff=PlayerId(_needs(self.sheriff, "sheriff")))
                case "keep_character":
                    return KeepCharacter(player=player, keep=_needs(self.keep, "keep"))
                case "choose_character":
                    return ChooseCharacter(
                        player=player, character=CharacterId(_needs(self.character, "character"))
                    )
                case "sheriff":
                    return SheriffDrawn(player=player)
                case "character":
                    return CharacterDrawn(
                        player=player, character=CharacterId(_needs(self.character, "character"))
                    )
                case _:
                    return RolesDrawn(
                        player=player, roles=tuple(Role(r) for r in _needs(self.roles, "roles"))
                    )
        except ValueError as error:
            if isinstance(error, SeriesRefused):
                raise
            raise SeriesRefused(f"{self.kind}: {error}") from None


def _needs(value: Any, field: str) -> Any:
    if value is None:
        raise SeriesRefused(f"this decision needs the field {field!r}")
    return value


class CloseSeriesRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    command_id: CommandId
    reason: Annotated[
        str, msgspec.Meta(max_length=200, pattern=TEXT_PATTERN, description=RULES[TEXT_PATTERN])
    ] = ""
    """Free text, stored for good in ``SeriesClosed``: no control or bidi characters (bounds.py)."""


class SeriesList(msgspec.Struct, frozen=True, kw_only=True):
    club_id: str
    series: list[SeriesView]
    next_offset: int | None = None
    """The ``offset`` of the next page (None: the last page)."""


def series_service(gateway: GameGateway) -> SeriesService:
    return SeriesService(gateway.store, gateway.service, gateway.service.seeds)


def _account(principal: Principal | None) -> Principal:
    if principal is None:
        raise AuthenticationRequired("sign in to run a series")
    if principal.kind is not TokenKind.ACCOUNT or principal.account is None:
        raise Forbidden("a series is run by signed-in accounts, not by a game's or an organiser's token")
    return principal


def _organises(principal: Principal, club_id: str) -> None:
    account = principal.account
    assert account is not None
    if not any(account.holds(club_id, role) for role in ORGANISING):
        raise RoleRequired(club_id, tuple(str(r) for r in ORGANISING))


def _keeps_score(principal: Principal, state: SeriesState) -> bool:
    account = principal.account
    assert account is not None
    if state.opened.mode is not GameMode.TABLE:
        return False
    return principal.subject == state.opened.opened_by or any(
        account.holds(state.opened.club_id, role) for role in KEEPING_SCORE
    )


async def open_as(gateway: GameGateway, principal: Principal | None, data: OpenSeriesRequest) -> SeriesState:
    """``POST /series`` and GraphQL's ``openSeries``: a club's organiser or admin opens it."""
    caller = _account(principal)
    _organises(caller, data.club_id)
    try:
        ruleset = ruleset_of(data.modules)
    except RulesetError as error:
        raise SeriesRefused(str(error)) from None
    spec = NewSeries(
        series_id=data.series_id,
        club_id=data.club_id,
        mode=data.mode,
        ruleset=ruleset,
        members=tuple(m.to_member() for m in data.members or ()),
        seats=None
        if data.seats is None
        else tuple(
            TableSeat(
                member_id=s.member_id, name=s.name, role=s.role, character=s.character, special=s.special
            )
            for s in data.seats
        ),
    )
    return await series_service(gateway).open(spec, opened_by=caller.subject, command_id=data.command_id)


async def decide_as(
    gateway: GameGateway, principal: Principal | None, series_id: str, data: DecisionRequest
) -> SeriesState:
    """``POST /series/{id}/decisions`` and GraphQL's ``decideInSeries``: the seated player's
    decision, or at a table the scorekeeper's entry."""
    caller = _account(principal)
    service = series_service(gateway)
    state = await service.load(series_id)
    entry = data.entry()
    return await service.decide(
        series_id,
        entry,
        member_id=caller.subject,
        scorekeeper=_keeps_score(caller, state),
        command_id=data.command_id,
    )


async def close_as(
    gateway: GameGateway, principal: Principal | None, series_id: str, data: CloseSeriesRequest
) -> SeriesState:
    """``POST /series/{id}/close`` and GraphQL's ``closeSeries``: the club's organiser or admin."""
    caller = _account(principal)
    service = series_service(gateway)
    state = await service.load(series_id)
    _organises(caller, state.opened.club_id)
    return await service.close(
        series_id, closed_by=caller.subject, reason=data.reason, command_id=data.command_id
    )


class SeriesController(Controller):
    path = "/series"
    tags = ["series"]

    @post(
        "/",
        operation_id="openSeries",
        status_code=201,
        summary="Open a legacy series (UA5)",
        security=TOKEN_REQUIRED,
    )
    async def open_series(
        self, data: JSONBody[OpenSeriesRequest], gateway: GameGateway, principal: Principal | None
    ) -> SeriesView:
        state = await open_as(gateway, principal, data)
        return await series_service(gateway).view(state)

    @get("/", operation_id="listSeries", summary="A club's legacy series")
    async def list_series(
        self,
        gateway: GameGateway,
        club: Annotated[
            str,
            Parameter(
                query="club",
                min_length=1,
                max_length=MAX_ID_LENGTH,
                pattern=ID_PATTERN,
                description=f"a club id: {RULES[ID_PATTERN]}",
            ),
        ],
        limit: Annotated[int, Parameter(query="limit", ge=1, le=MAX_PAGE)] = 20,
        offset: Annotated[int, Parameter(query="offset", ge=0, le=MAX_OFFSET)] = 0,
    ) -> SeriesList:
        """A page of the club's series, in the order they were opened (``next_offset`` for the next
        page); read from the club's own index, never from every series."""
        service = series_service(gateway)
        page = await service.list_page(club, limit=limit, offset=offset)
        views = [await service.view(s) for s in page.items]
        return SeriesList(club_id=club, series=views, next_offset=page.next_offset)

    @get("/{series_id:str}", operation_id="getSeries", summary="A series: games, decisions, standing")
    async def get_series(self, series_id: str, gateway: GameGateway) -> SeriesView:
        service = series_service(gateway)
        return await service.view(await service.load(series_id))

    @post(
        "/{series_id:str}/decisions",
        operation_id="decideInSeries",
        status_code=201,
        summary="A decision (or a table draw) between two games of a series",
        security=TOKEN_REQUIRED,
    )
    async def decide(
        self,
        series_id: str,
        data: JSONBody[DecisionRequest],
        gateway: GameGateway,
        principal: Principal | None,
    ) -> SeriesView:
        state = await decide_as(gateway, principal, series_id, data)
        return await series_service(gateway).view(state)

    @post(
        "/{series_id:str}/close",
        operation_id="closeSeries",
        status_code=200,
        summary="Close a series (online: its seed is revealed)",
        security=TOKEN_REQUIRED,
    )
    async def close(
        self,
        series_id: str,
        data: JSONBody[CloseSeriesRequest],
        gateway: GameGateway,
        principal: Principal | None,
    ) -> SeriesView:
        state = await close_as(gateway, principal, series_id, data)
        return await series_service(gateway).view(state)

    @get("/{series_id:str}/audit", operation_id="auditSeries", summary="Audit a series as a whole")
    async def audit(self, series_id: str, gateway: GameGateway) -> SeriesAudit:
        return await audit_series(gateway.store, series_service(gateway), series_id)
