"""The REST edge of league management (docs/league.md, "Running a league through the API").

Thin handlers: each bounds its path and body (400 naming the field and the rule), then makes one
``LeagueOrganiser`` call with the signed-in caller (``caller``: the clubs' ``Principal``), which
checks the caller's role in the league's club (403 ``role-required``) before anything is written.
A POST answers 201 with what it made, or 200 with the same answer when its ``command_id`` was
applied before. Who may call which route: docs/permissions.md, "League routes".
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal, TypeVar

import msgspec
from litestar import Controller, Response, get, post
from litestar.datastructures import State
from litestar.di import Provide

from event_store import PostgresEventStore
from services.accounts.http import SECURED
from services.clubs.http import provide_reader
from services.clubs.roles import Principal
from services.game.application.lifecycle import GameMode
from services.game.application.service import NewGame
from services.game.edge.bounds import (
    NAME_PATTERN,
    RULES,
    TEXT_PATTERN,
    CommandId,
    GameId,
    Identifier,
    Name,
    Round,
    Table,
    bounded,
)
from services.game.edge.gateway import Created
from services.game.edge.http import TOKEN_OPTIONAL, OptionsIn, RulesetIn
from services.league.league import MAX_REASON_LENGTH
from services.league.organise import (
    Done,
    EnrolmentAnswer,
    ForfeitAnswer,
    GameAuditAnswer,
    LeagueAnswer,
    LeagueOrganiser,
    ResultSheetAnswer,
    RoundAnswer,
    RoundClosedAnswer,
    ScheduledAnswer,
    ScheduleOfGame,
    SeasonAnswer,
    SeasonClosedAnswer,
    SeatReplacedAnswer,
    SeatsAnswer,
    StartSeat,
    TournamentAnswer,
    VisibilityAnswer,
    VoidAnswer,
)
from services.league.result_sheet import ResultSheet, SheetElimination, SheetSeat
from services.league.service import LeagueService
from services.league.vocabulary import (
    DEFAULT_DECISION_SECONDS,
    MAX_DECISION_SECONDS,
    MAX_TABLE,
    MIN_TABLE,
    PointsScheme,
    SeatingPolicy,
)

T = TypeVar("T")
MAX_POINTS = 100
MAX_ENROLMENT = 500
"""Members enrolled by one request (a large club's season; more is several requests)."""
MAX_SEATED_TABLES = 100
SeatId = Annotated[str, msgspec.Meta(pattern=r"^p[1-8]$", description="a seat: p1 to p8")]

Points = Annotated[int, msgspec.Meta(ge=0, le=MAX_POINTS)]
TableSize = Annotated[int, msgspec.Meta(ge=MIN_TABLE, le=MAX_TABLE)]
Seed = Annotated[
    str, msgspec.Meta(min_length=1, max_length=100, pattern=NAME_PATTERN, description=RULES[NAME_PATTERN])
]
StartsAt = Annotated[
    datetime,
    msgspec.Meta(tz=True, description="a date and time with its UTC offset: 2026-11-28T19:30:00+01:00"),
]
Reason = Annotated[
    str,
    msgspec.Meta(max_length=MAX_REASON_LENGTH, pattern=TEXT_PATTERN, description=RULES[TEXT_PATTERN]),
]


class PointsIn(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A points scheme (docs/league.md, "Points and tie-breaks"); left-out fields as the default."""

    win: Points = 3
    loss: Points = 0
    survivor_bonus: Points = 0
    renegade_bonus: Points = 0
    bye: Points = 1

    def to_scheme(self) -> PointsScheme:
        return PointsScheme(**msgspec.structs.asdict(self))


class SeatingIn(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    allowed_sizes: Annotated[tuple[TableSize, ...], msgspec.Meta(min_length=1, max_length=6)] = (4, 5, 6, 7)
    preferred_size: TableSize = 5

    def to_policy(self) -> SeatingPolicy:
        return SeatingPolicy(allowed_sizes=self.allowed_sizes, preferred_size=self.preferred_size)


class FoundLeagueRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: Name
    league_id: Identifier | None = None
    """Left out: derived from ``command_id`` (a retry names the same league)."""
    points: PointsIn | None = None
    seating: SeatingIn | None = None
    game_type: Literal["dice", "cards"] = "dice"
    """What the league plays: BANG! The Dice Game, or the original card game (4-7 players, 8
    with the two-Renegade set). Every game scheduled for it is of this type."""
    visibility: Literal["public", "members"] = "members"
    """Who may read its standings, rounds and tables: anyone (``public``) or its club's members
    only (``members``, the default). Changed later at ``POST /leagues/{id}/visibility``."""
    decision_seconds: Annotated[int, msgspec.Meta(ge=1, le=MAX_DECISION_SECONDS)] = DEFAULT_DECISION_SECONDS
    """Each decision's time in the league's online games (default 86400: 24 hours); past it
    the decision's documented default is played for the player (docs/game-service.md)."""
    command_id: CommandId | None = None


class VisibilityRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    visibility: Literal["public", "members"]
    """``public``: anyone may read the league; ``members``: its club's members only."""
    command_id: CommandId | None = None


Word = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=r"^[a-z_]+$")]
Turn = Annotated[int, msgspec.Meta(ge=1, le=100_000)]


class SheetSeatIn(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    member_id: Identifier
    role: Word
    """``sheriff``, ``deputy``, ``outlaw`` or ``renegade``."""
    character: Word
    """One of the 16 characters, as ``bart_cassidy``, ``willy_the_kid``…"""


class SheetEliminationIn(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    member_id: Identifier
    by: Identifier | None = None
    """The member whose card eliminated them; left out: nobody (Dynamite, his own Duel)."""
    turn: Turn


class ResultSheetRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A card game played entirely on cardboard, as the table wrote it down."""

    seats: Annotated[list[SheetSeatIn], msgspec.Meta(min_length=1, max_length=MAX_TABLE)]
    """In the order the players sat."""
    eliminations: Annotated[list[SheetEliminationIn], msgspec.Meta(max_length=MAX_TABLE)] = []
    """In the order they happened."""
    winning_side: Literal["law", "outlaws", "renegade"]
    winners: Annotated[list[Identifier], msgspec.Meta(max_length=MAX_TABLE)]
    """Every member of the winning side, dead or alive (a Renegade's win: the living Renegade)."""
    command_id: CommandId | None = None

    def to_sheet(self) -> ResultSheet:
        return ResultSheet(
            seats=tuple(
                SheetSeat(member_id=s.member_id, role=s.role, character=s.character) for s in self.seats
            ),
            eliminations=tuple(
                SheetElimination(member_id=e.member_id, by=e.by, turn=e.turn) for e in self.eliminations
            ),
            winning_side=self.winning_side,
            winners=tuple(self.winners),
        )


class OpenSeasonRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: Name
    season_id: Identifier | None = None
    points: PointsIn | None = None
    """Left out: the league's scheme."""
    command_id: CommandId | None = None


class EnrolRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    member_ids: Annotated[list[Identifier], msgspec.Meta(min_length=1, max_length=MAX_ENROLMENT)]
    """Account ids of club members: all are enrolled, or (refused) none."""
    command_id: CommandId | None = None


class OpenTournamentRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: Name
    tournament_id: Identifier | None = None
    seating: SeatingIn | None = None
    """Left out: the league's policy."""
    command_id: CommandId | None = None


class SeatRoundRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    round: Round | None = None
    """Left out: the next round."""
    seed: Seed | None = None
    """The seating's random choices (left out: a random one)."""
    tables: (
        Annotated[
            list[Annotated[list[Identifier], msgspec.Meta(max_length=MAX_TABLE)]],
            msgspec.Meta(min_length=1, max_length=MAX_SEATED_TABLES),
        ]
        | None
    ) = None
    """Your own tables instead of the Swiss ones (the Sheriff still by the rotation)."""
    command_id: CommandId | None = None


class ScheduleRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    mode: GameMode
    """``online``: the game is created now, its members seated in the seating's order;
    ``table``: a physical table, its dice entered by ``scorekeeper``."""
    game_id: GameId | None = None
    """Left out: ``g-<hex>``, derived from ``command_id``."""
    scorekeeper: Identifier | None = None
    """A table game's scorekeeper (a club member's account id); granted ``scorekeeper`` for
    this game alone."""
    ruleset: RulesetIn | None = None
    """The game's rules (its modules; the card game's ``eight_players``), for either mode."""
    options: OptionsIn | None = None
    """The decision timer (``decision_timeout_seconds``), for either mode."""
    starts_at: StartsAt | None = None
    """When the table plays: ISO 8601 with its UTC offset (``2026-11-28T19:30:00+01:00``)."""
    command_id: CommandId | None = None

    def setup(self) -> NewGame | None:
        if self.ruleset is None and self.options is None:
            return None
        base = NewGame(mode=GameMode.ONLINE, player_count=0)
        return msgspec.structs.replace(
            base,
            ruleset=base.ruleset if self.ruleset is None else self.ruleset.to_ruleset(),
            options=base.options if self.options is None else self.options.to_options(),
        )


Word = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=r"^[a-z0-9_]+$")]
"""A role, character or special role card as the engine names it (``bart_cassidy``)."""


class StartSeatIn(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    member_id: Identifier
    """One of the table's members."""
    role: Word
    character: Word
    special: Word | None = None
    """With OS3: the seat's special role card."""


StartSeats = Annotated[list[StartSeatIn], msgspec.Meta(min_length=MIN_TABLE, max_length=MAX_TABLE)]


class StartGameRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Start a scheduled table's game: ``seats`` as dealt at the physical table (clockwise, each
    of the table's members once), or none: the server deals them."""

    seats: StartSeats | None = None
    command_id: CommandId | None = None

    def start_seats(self) -> tuple[StartSeat, ...] | None:
        if self.seats is None:
            return None
        return tuple(StartSeat(**msgspec.structs.asdict(s)) for s in self.seats)


class ForfeitRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    table: Table
    member_id: Identifier
    kind: Literal["forfeit", "no-show"] = "forfeit"
    reason: Reason = ""
    command_id: CommandId | None = None


class CloseRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    command_id: CommandId | None = None


class ReplaceSeatRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Who takes the seat over: a member of the league's club (``member_id``) or a bot
    (``bot: true``), exactly one of the two."""

    member_id: Identifier | None = None
    bot: bool = False
    reason: Reason = ""
    command_id: CommandId | None = None


class VoidRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    reason: Annotated[Reason, msgspec.Meta(min_length=1)]
    command_id: CommandId | None = None


async def provide_organiser(state: State) -> LeagueOrganiser:
    organiser: LeagueOrganiser | None = state.get("league_organiser")
    if organiser is None:
        resources = state.resources
        league = LeagueService(PostgresEventStore(resources.pool))
        organiser = LeagueOrganiser(league, state.clubs, resources.gateway, resources.pool)
        state.league_organiser = organiser
    return organiser


def answered(done: Done[T]) -> Response[T]:
    return Response(done.answer, status_code=201 if done.new else 200)


def _id(field: str, value: str) -> str:
    return bounded(field, value, Identifier)


def _round(value: int) -> int:
    return bounded("round", value, Round)


class ClubLeagueController(Controller):
    path = "/clubs/{club_id:str}/leagues"
    tags = ["league management"]

    @post(
        operation_id="foundLeague",
        summary="Found a league of the club (admin or organiser)",
        security=SECURED,
    )
    async def found(
        self, club_id: str, data: FoundLeagueRequest, caller: Principal, organiser: LeagueOrganiser
    ) -> Response[LeagueAnswer]:
        done = await organiser.found_league(
            caller,
            _id("club_id", club_id),
            name=data.name,
            league_id=data.league_id,
            points=None if data.points is None else data.points.to_scheme(),
            seating=None if data.seating is None else data.seating.to_policy(),
            game_type=data.game_type,
            visibility=data.visibility,
            decision_seconds=data.decision_seconds,
            command_id=data.command_id,
        )
        return answered(done)


class LeagueManagementController(Controller):
    path = "/leagues/{league_id:str}"
    tags = ["league management"]

    @post(
        "/visibility",
        operation_id="setLeagueVisibility",
        summary="Make the league public or members-only (admin or organiser)",
        security=SECURED,
    )
    async def set_visibility(
        self, league_id: str, data: VisibilityRequest, caller: Principal, organiser: LeagueOrganiser
    ) -> Response[VisibilityAnswer]:
        done = await organiser.set_visibility(
            caller, _id("league_id", league_id), visibility=data.visibility, command_id=data.command_id
        )
        return answered(done)

    @post("/seasons", operation_id="openSeason", summary="Open a season", security=SECURED)
    async def open_season(
        self, league_id: str, data: OpenSeasonRequest, caller: Principal, organiser: LeagueOrganiser
    ) -> Response[SeasonAnswer]:
        done = await organiser.open_season(
            caller,
            _id("league_id", league_id),
            name=data.name,
            season_id=data.season_id,
            points=None if data.points is None else data.points.to_scheme(),
            command_id=data.command_id,
        )
        return answered(done)

    @post(
        "/seasons/{season_id:str}/entrants",
        operation_id="enrolPlayers",
        summary="Enrol club members in a season (all or none)",
        security=SECURED,
    )
    async def enrol(
        self,
        league_id: str,
        season_id: str,
        data: EnrolRequest,
        caller: Principal,
        organiser: LeagueOrganiser,
    ) -> Response[EnrolmentAnswer]:
        done = await organiser.enrol(
            caller,
            _id("league_id", league_id),
            _id("season_id", season_id),
            data.member_ids,
            command_id=data.command_id,
        )
        return answered(done)

    @post(
        "/seasons/{season_id:str}/tournaments",
        operation_id="openTournament",
        summary="Open a tournament in a season",
        security=SECURED,
    )
    async def open_tournament(
        self,
        league_id: str,
        season_id: str,
        data: OpenTournamentRequest,
        caller: Principal,
        organiser: LeagueOrganiser,
    ) -> Response[TournamentAnswer]:
        done = await organiser.open_tournament(
            caller,
            _id("league_id", league_id),
            _id("season_id", season_id),
            name=data.name,
            tournament_id=data.tournament_id,
            seating=None if data.seating is None else data.seating.to_policy(),
            command_id=data.command_id,
        )
        return answered(done)

    @post(
        "/seasons/{season_id:str}/close",
        operation_id="closeSeason",
        summary="Close a season",
        security=SECURED,
    )
    async def close_season(
        self,
        league_id: str,
        season_id: str,
        caller: Principal,
        organiser: LeagueOrganiser,
        data: CloseRequest | None = None,
    ) -> Response[SeasonClosedAnswer]:
        done = await organiser.close_season(
            caller,
            _id("league_id", league_id),
            _id("season_id", season_id),
            command_id=None if data is None else data.command_id,
        )
        return answered(done)

    @post(
        "/tournaments/{tournament_id:str}/rounds",
        operation_id="seatRound",
        summary="Seat the next round: Swiss on the standings, the Sheriff by rotation",
        security=SECURED,
    )
    async def seat_round(
        self,
        league_id: str,
        tournament_id: str,
        data: SeatRoundRequest,
        caller: Principal,
        organiser: LeagueOrganiser,
    ) -> Response[RoundAnswer]:
        done = await organiser.seat_round(
            caller,
            _id("league_id", league_id),
            _id("tournament_id", tournament_id),
            round_number=data.round,
            seed=data.seed,
            tables=None if data.tables is None else tuple(tuple(t) for t in data.tables),
            command_id=data.command_id,
        )
        return answered(done)

    @post(
        "/tournaments/{tournament_id:str}/rounds/{round:int}/tables/{table:int}/game",
        operation_id="scheduleGame",
        summary="Schedule a seated table's game: online (created now) or at a table (with its scorekeeper)",
        security=SECURED,
    )
    async def schedule(
        self,
        league_id: str,
        tournament_id: str,
        round: int,
        table: int,
        data: ScheduleRequest,
        caller: Principal,
        organiser: LeagueOrganiser,
    ) -> Response[ScheduledAnswer]:
        done = await organiser.schedule(
            caller,
            _id("league_id", league_id),
            _id("tournament_id", tournament_id),
            _round(round),
            bounded("table", table, Table),
            mode=data.mode,
            game_id=data.game_id,
            scorekeeper=data.scorekeeper,
            setup=data.setup(),
            starts_at=data.starts_at,
            command_id=data.command_id,
        )
        return answered(done)

    @post(
        "/tournaments/{tournament_id:str}/rounds/{round:int}/tables/{table:int}/game/start",
        operation_id="startTableGame",
        status_code=201,
        summary="Start a scheduled table game: the seats as dealt at the table, or dealt by the server",
        security=SECURED,
    )
    async def start_table_game(
        self,
        league_id: str,
        tournament_id: str,
        round: int,
        table: int,
        data: StartGameRequest,
        caller: Principal,
        organiser: LeagueOrganiser,
    ) -> Created:
        return await organiser.start_table_game(
            caller,
            _id("league_id", league_id),
            _id("tournament_id", tournament_id),
            _round(round),
            bounded("table", table, Table),
            seats=data.start_seats(),
            command_id=data.command_id,
        )

    @post(
        "/tournaments/{tournament_id:str}/rounds/{round:int}/tables/{table:int}/result-sheet",
        operation_id="recordResultSheet",
        summary="Record the result sheet of a card game played entirely on cardboard (not replayable)",
        security=SECURED,
    )
    async def result_sheet(
        self,
        league_id: str,
        tournament_id: str,
        round: int,
        table: int,
        data: ResultSheetRequest,
        caller: Principal,
        organiser: LeagueOrganiser,
    ) -> Response[ResultSheetAnswer]:
        done = await organiser.record_result_sheet(
            caller,
            _id("league_id", league_id),
            _id("tournament_id", tournament_id),
            _round(round),
            bounded("table", table, Table),
            sheet=data.to_sheet(),
            command_id=data.command_id,
        )
        return answered(done)

    @post(
        "/tournaments/{tournament_id:str}/rounds/{round:int}/forfeits",
        operation_id="recordForfeit",
        summary="Record a seated member's forfeit or no-show",
        security=SECURED,
    )
    async def forfeit(
        self,
        league_id: str,
        tournament_id: str,
        round: int,
        data: ForfeitRequest,
        caller: Principal,
        organiser: LeagueOrganiser,
    ) -> Response[ForfeitAnswer]:
        done = await organiser.forfeit(
            caller,
            _id("league_id", league_id),
            _id("tournament_id", tournament_id),
            _round(round),
            table=data.table,
            member_id=data.member_id,
            kind=data.kind,
            reason=data.reason,
            command_id=data.command_id,
        )
        return answered(done)

    @post(
        "/tournaments/{tournament_id:str}/rounds/{round:int}/close",
        operation_id="closeRound",
        summary="Close a round: nothing more is scheduled or forfeited in it",
        security=SECURED,
    )
    async def close_round(
        self,
        league_id: str,
        tournament_id: str,
        round: int,
        caller: Principal,
        organiser: LeagueOrganiser,
        data: CloseRequest | None = None,
    ) -> Response[RoundClosedAnswer]:
        done = await organiser.close_round(
            caller,
            _id("league_id", league_id),
            _id("tournament_id", tournament_id),
            _round(round),
            command_id=None if data is None else data.command_id,
        )
        return answered(done)

    @post(
        "/games/{game_id:str}/void",
        operation_id="voidGame",
        summary="Void one of the league's games, with a reason (referee, organiser or admin)",
        security=SECURED,
    )
    async def void(
        self,
        league_id: str,
        game_id: str,
        data: VoidRequest,
        caller: Principal,
        organiser: LeagueOrganiser,
    ) -> Response[VoidAnswer]:
        done = await organiser.void(
            caller,
            _id("league_id", league_id),
            bounded("game_id", game_id, GameId),
            reason=data.reason,
            command_id=data.command_id,
        )
        return answered(done)


class LeagueGameSeatsController(Controller):
    """A league game's seats for the league's organisers and referees: who holds each, who has
    no login, which seat the game waits on and since when; and replacing a seat."""

    path = "/leagues/{league_id:str}/games/{game_id:str}/seats"
    tags = ["league management"]

    @get(
        operation_id="leagueGameSeats",
        summary="A league game's seats: who holds each, who has no login, who the game waits on and "
        "whether past the deadline (referee, organiser or admin)",
        security=SECURED,
    )
    async def seats(
        self, league_id: str, game_id: str, caller: Principal, organiser: LeagueOrganiser
    ) -> SeatsAnswer:
        return await organiser.seats(caller, _id("league_id", league_id), bounded("game_id", game_id, GameId))

    @post(
        "/{seat:str}/replace",
        operation_id="replaceSeat",
        summary="Give a seat of an ongoing online league game to a substitute member or a bot "
        "(referee, organiser or admin)",
        security=SECURED,
    )
    async def replace(
        self,
        league_id: str,
        game_id: str,
        seat: str,
        data: ReplaceSeatRequest,
        caller: Principal,
        organiser: LeagueOrganiser,
    ) -> Response[SeatReplacedAnswer]:
        done = await organiser.replace_seat(
            caller,
            _id("league_id", league_id),
            bounded("game_id", game_id, GameId),
            bounded("seat", seat, SeatId),
            member_id=data.member_id,
            bot=data.bot,
            reason=data.reason,
            command_id=data.command_id,
        )
        return answered(done)


class LeagueGameAuditController(Controller):
    path = "/leagues/{league_id:str}/games/{game_id:str}/audit"
    tags = ["league management"]

    @get(
        dependencies={"reader": Provide(provide_reader)},
        operation_id="leagueGameAudit",
        summary="How a league game is audited: by replay, or not at all for a result sheet (not replayable)",
        security=TOKEN_OPTIONAL,
    )
    async def audit(
        self, league_id: str, game_id: str, reader: Principal | None, organiser: LeagueOrganiser
    ) -> GameAuditAnswer:
        return await organiser.game_audit(
            reader, _id("league_id", league_id), bounded("game_id", game_id, GameId)
        )


class GameScheduleController(Controller):
    path = "/games/{game_id:str}/schedule"
    tags = ["league management"]

    @get(
        dependencies={"reader": Provide(provide_reader)},
        operation_id="gameSchedule",
        summary="Where a league scheduled a game id (league, tournament, round, table), before it exists",
        security=TOKEN_OPTIONAL,
    )
    async def schedule(
        self, game_id: str, reader: Principal | None, organiser: LeagueOrganiser
    ) -> ScheduleOfGame:
        return await organiser.schedule_of(reader, bounded("game_id", game_id, GameId))


LEAGUE_CONTROLLERS = (
    ClubLeagueController,
    LeagueManagementController,
    LeagueGameSeatsController,
    LeagueGameAuditController,
    GameScheduleController,
)
