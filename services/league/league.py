"""The league aggregate (stream ``league-<id>``): seasons, enrolments, tournaments, rounds.

A season's seating history (who met whom, Sheriff counts and shares, byes) is part of the
state, so seating a round is a pure function of the stream and the command.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from services.game.results import GameType
from services.league.commands import (
    CloseRound,
    CloseSeason,
    EnrollPlayer,
    EnrollPlayers,
    FoundLeague,
    LeagueAggregateCommand,
    OpenSeason,
    OpenTournament,
    RecordForfeit,
    RecordResultSheet,
    ScheduleGame,
    SeatRound,
    SetLeagueVisibility,
    VoidGame,
)
from services.league.errors import (
    AlreadyExists,
    InvalidCommand,
    InvalidTransition,
    PlayerSeatedTwice,
    RoundAlreadySeated,
    RoundClosedAlready,
    SeasonAlreadyClosed,
    UnknownEntity,
    UnknownPlayer,
)
from services.league.events import (
    ForfeitRecorded,
    GameScheduled,
    GameVoided,
    LeagueEvent,
    LeagueFounded,
    LeagueVisibilityChanged,
    PlayerEnrolled,
    ResultSheetRecorded,
    RoundClosed,
    RoundSeated,
    SeasonClosed,
    SeasonOpened,
    SeatedTable,
    TournamentOpened,
)
from services.league.result_sheet import check_sheet
from services.league.seating import Seating, SeatingHistory, Table, has_sheriff, pick_sheriff, seat_round
from services.league.vocabulary import (
    DEFAULT_DECISION_SECONDS,
    MEMBERS_ONLY,
    PointsScheme,
    SeatingPolicy,
    check_decision_seconds,
    check_game_type,
    check_id,
    check_table_size,
    check_visibility,
)


@dataclass(slots=True)
class RoundState:
    number: int
    tables: tuple[SeatedTable, ...]
    byes: tuple[str, ...]
    games: dict[int, str] = field(default_factory=dict)
    """table number → game id, once scheduled."""
    forfeits: dict[str, str] = field(default_factory=dict)
    """member id → ``forfeit`` or ``no-show``: at most one per member and round."""
    closed: bool = False

    def table(self, tournament_id: str, number: int) -> SeatedTable:
        for seated in self.tables:
            if seated.table == number:
                return seated
        raise UnknownEntity("table", f"{tournament_id} round {self.number} table {number}")


@dataclass(slots=True)
class TournamentState:
    tournament_id: str
    season_id: str
    name: str
    seating: SeatingPolicy
    rounds: dict[int, RoundState] = field(default_factory=dict)


@dataclass(slots=True)
class SeasonState:
    season_id: str
    name: str
    points: PointsScheme
    closed: bool = False
    entrants: list[str] = field(default_factory=list)
    tournaments: list[str] = field(default_factory=list)
    history: SeatingHistory = field(default_factory=SeatingHistory)


@dataclass(slots=True)
class LeagueState:
    league_id: str | None = None
    club_id: str = ""
    name: str = ""
    points: PointsScheme = field(default_factory=PointsScheme)
    seating: SeatingPolicy = field(default_factory=SeatingPolicy)
    game_type: str = GameType.DICE.value
    """``dice`` or ``cards``: every game of the league is of this type."""
    visibility: str = MEMBERS_ONLY
    """``public`` or ``members``: who may read the league (services/league/visibility.py)."""
    decision_seconds: int = DEFAULT_DECISION_SECONDS
    """Each decision's time in the league's online games."""
    seasons: dict[str, SeasonState] = field(default_factory=dict)
    tournaments: dict[str, TournamentState] = field(default_factory=dict)
    games: dict[str, tuple[str, int, int]] = field(default_factory=dict)
    """Every scheduled game id → (tournament, round, table)."""
    voided: dict[str, str] = field(default_factory=dict)
    """Voided game id → the reason."""
    modes: dict[str, str | None] = field(default_factory=dict)
    """Scheduled game id → ``online`` or ``table`` (None: scheduled before modes were recorded)."""
    sheets: set[str] = field(default_factory=set)
    """Game ids known from a result sheet."""

    @property
    def exists(self) -> bool:
        return self.league_id is not None

    def season(self, season_id: str) -> SeasonState:
        try:
            return self.seasons[season_id]
        except KeyError:
            raise UnknownEntity("season", season_id) from None

    def open_season(self, season_id: str) -> SeasonState:
        season = self.season(season_id)
        if season.closed:
            raise SeasonAlreadyClosed(season_id)
        return season

    def tournament(self, tournament_id: str) -> TournamentState:
        try:
            return self.tournaments[tournament_id]
        except KeyError:
            raise UnknownEntity("tournament", tournament_id) from None

    def round(self, tournament_id: str, number: int) -> RoundState:
        seated = self.tournament(tournament_id).rounds.get(number)
        if seated is None:
            raise UnknownEntity("round", f"{tournament_id} round {number}")
        return seated

    def open_round(self, tournament_id: str, number: int) -> RoundState:
        """A seated round of an open season that is not closed: what schedules and forfeits need."""
        self.open_season(self.tournament(tournament_id).season_id)
        seated = self.round(tournament_id, number)
        if seated.closed:
            raise RoundClosedAlready(tournament_id, number)
        return seated


def league_stream(league_id: str) -> str:
    return f"league-{league_id}"


def decide(state: LeagueState, command: LeagueAggregateCommand) -> list[LeagueEvent]:
    """The events ``command`` causes; raises a LeagueError (and changes nothing) if refused."""
    if isinstance(command, FoundLeague):
        check_id("league id", command.league_id)
        if state.exists:
            raise AlreadyExists("league", command.league_id)
        game_type = check_game_type(command.game_type)
        return [
            LeagueFounded(
                league_id=command.league_id,
                club_id=command.club_id,
                name=command.name,
                points=command.points.validate(),
                seating=command.seating.validate(game_type),
                game_type=game_type,
                visibility=check_visibility(command.visibility),
                decision_seconds=check_decision_seconds(command.decision_seconds),
            )
        ]
    if not state.exists:
        raise UnknownEntity("league", command.league_id)
    league_id = command.league_id
    match command:
        case SetLeagueVisibility(visibility=visibility):
            if check_visibility(visibility) == state.visibility:
                return []  # so already: nothing to record
            return [
                LeagueVisibilityChanged(
                    league_id=league_id, visibility=visibility, changed_by=command.changed_by
                )
            ]
        case OpenSeason(season_id=season_id, name=name, points=points):
            check_id("season id", season_id)
            if season_id in state.seasons:
                raise AlreadyExists("season", season_id)
            scheme = (points or state.points).validate()
            return [SeasonOpened(league_id=league_id, season_id=season_id, name=name, points=scheme)]
        case EnrollPlayer(season_id=season_id, member_id=member_id):
            season = state.open_season(season_id)
            if member_id in season.entrants:
                raise AlreadyExists("enrolment", f"{member_id} in {season_id}")
            return [PlayerEnrolled(league_id=league_id, season_id=season_id, member_id=member_id)]
        case OpenTournament(season_id=season_id, tournament_id=tournament_id, name=name, seating=seating):
            check_id("tournament id", tournament_id)
            state.open_season(season_id)
            if tournament_id in state.tournaments:
                raise AlreadyExists("tournament", tournament_id)
            policy = (seating or state.seating).validate(state.game_type)
            return [
                TournamentOpened(
                    league_id=league_id,
                    season_id=season_id,
                    tournament_id=tournament_id,
                    name=name,
                    seating=policy,
                )
            ]
        case SeatRound():
            return [_seat(state, command)]
        case EnrollPlayers(season_id=season_id, member_ids=member_ids):
            season = state.open_season(season_id)
            if not member_ids:
                raise InvalidCommand("enrol at least one member")
            if len(set(member_ids)) != len(member_ids):
                raise InvalidCommand("a member is named twice in one enrolment")
            for member_id in member_ids:
                if member_id in season.entrants:
                    raise AlreadyExists("enrolment", f"{member_id} in {season_id}")
            return [
                PlayerEnrolled(league_id=league_id, season_id=season_id, member_id=member_id)
                for member_id in member_ids
            ]
        case ScheduleGame():
            return _schedule(state, command)
        case RecordForfeit():
            return [_forfeit(state, command)]
        case CloseRound(tournament_id=tournament_id, round=number):
            if state.round(tournament_id, number).closed:
                raise RoundClosedAlready(tournament_id, number)
            return [
                RoundClosed(
                    league_id=league_id,
                    tournament_id=tournament_id,
                    round=number,
                    closed_by=command.closed_by,
                )
            ]
        case VoidGame(game_id=game_id, reason=reason, voided_by=voided_by):
            if game_id not in state.games:
                raise UnknownEntity("game", f"{game_id} in league {league_id}")
            if game_id in state.voided:
                raise AlreadyExists("void", game_id)
            return [
                GameVoided(
                    league_id=league_id,
                    game_id=game_id,
                    reason=_reason(reason, required=True),
                    voided_by=voided_by,
                )
            ]
        case RecordResultSheet():
            return [_result_sheet(state, command)]
        case CloseSeason(season_id=season_id):
            state.open_season(season_id)
            return [SeasonClosed(league_id=league_id, season_id=season_id)]
    raise TypeError(f"not a league command: {command!r}")


MODES = ("online", "table")
FORFEIT_KINDS = ("forfeit", "no-show")
MAX_REASON_LENGTH = 500


def _reason(text: str, *, required: bool) -> str:
    reason = text.strip()
    if required and not reason:
        raise InvalidCommand("a reason is required: say why, in a few words")
    if len(reason) > MAX_REASON_LENGTH:
        raise InvalidCommand(f"a reason has at most {MAX_REASON_LENGTH} characters, not {len(reason)}")
    return reason


def _schedule(state: LeagueState, command: ScheduleGame) -> list[LeagueEvent]:
    tournament_id, number, table = command.tournament_id, command.round, command.table
    game_id = command.game_id
    seated = state.open_round(tournament_id, number)
    seated.table(tournament_id, table)
    if command.mode is not None and command.mode not in MODES:
        raise InvalidCommand(f"a game's mode is online or table, not {command.mode!r}")
    if command.scorekeeper is not None and command.mode != "table":
        raise InvalidCommand("only a table game has a scorekeeper (online games keep their own score)")
    scheduled = seated.games.get(table)
    if scheduled == game_id:
        return []  # already recorded: asking again changes nothing
    if scheduled is not None:
        raise AlreadyExists("game for table", f"round {number} table {table}: {scheduled}")
    if game_id in state.games:
        other_tournament, other_round, other_table = state.games[game_id]
        raise AlreadyExists(
            "game", f"{game_id} (scheduled for {other_tournament} round {other_round} table {other_table})"
        )
    return [
        GameScheduled(
            league_id=command.league_id,
            tournament_id=tournament_id,
            round=number,
            table=table,
            game_id=game_id,
            mode=command.mode,
            scorekeeper=command.scorekeeper,
            scheduled_by=command.scheduled_by,
            starts_at=command.starts_at,
            ruleset=command.ruleset,
            decision_timeout_seconds=command.decision_timeout_seconds,
        )
    ]


def _result_sheet(state: LeagueState, command: RecordResultSheet) -> ResultSheetRecorded:
    """A scheduled card table's sheet: its seats are the members seated there, the rotation's
    Sheriff holds the Sheriff's card, and it is consistent (``result_sheet.check_sheet``)."""
    if state.game_type != GameType.CARDS:
        raise InvalidCommand(
            f"a result sheet is for a card game; league {state.league_id!r} plays {state.game_type}"
        )
    tournament_id, number, table_no = command.tournament_id, command.round, command.table
    seated = state.round(tournament_id, number)
    table = seated.table(tournament_id, table_no)
    where = f"{tournament_id} round {number} table {table_no}"
    scheduled = seated.games.get(table_no)
    if scheduled is None:
        raise UnknownEntity("game", f"at {where}: schedule the table's game before its result sheet")
    if scheduled != command.game_id:
        raise InvalidCommand(f"{where} plays game {scheduled!r}, not {command.game_id!r}")
    if state.modes.get(scheduled) == "online":
        raise InvalidCommand(
            f"game {scheduled!r} is an online game: the server keeps its result, not a sheet"
        )
    if scheduled in state.voided:
        raise InvalidTransition(f"game {scheduled!r} was voided: {state.voided[scheduled]}")
    if scheduled in state.sheets:
        raise AlreadyExists("result sheet", scheduled)
    given = [s.member_id for s in command.sheet.seats]
    if sorted(given) != sorted(table.members):
        extra = sorted(set(given) - set(table.members))
        missing = sorted(set(table.members) - set(given))
        words = [f"not seated at {where}: {', '.join(extra)}"] if extra else []
        words += [f"missing: {', '.join(missing)}"] if missing else []
        raise InvalidCommand(
            "the sheet's seats are not the table's members (" + "; ".join(words or ["a member twice"]) + ")"
        )
    sheriffs = [s.member_id for s in command.sheet.seats if s.role == "sheriff"]
    if table.sheriff is not None and sheriffs != [table.sheriff]:
        raise InvalidCommand(
            f"the Sheriff's card is held by {', '.join(sheriffs) or 'nobody'}; the rotation's Sheriff at "
            f"{where} is {table.sheriff!r}"
        )
    result = check_sheet(command.sheet, scheduled)
    return ResultSheetRecorded(
        league_id=command.league_id,
        season_id=state.tournament(tournament_id).season_id,
        tournament_id=tournament_id,
        round=number,
        table=table_no,
        game_id=scheduled,
        result=result,
        characters=tuple(s.character for s in command.sheet.seats),
        recorded_by=command.recorded_by,
    )


def _forfeit(state: LeagueState, command: RecordForfeit) -> ForfeitRecorded:
    seated = state.open_round(command.tournament_id, command.round)
    table = seated.table(command.tournament_id, command.table)
    where = f"{command.tournament_id} round {command.round} table {command.table}"
    if command.member_id not in table.members:
        raise UnknownPlayer(command.member_id, where)
    if command.kind not in FORFEIT_KINDS:
        raise InvalidCommand(f"a forfeit's kind is forfeit or no-show, not {command.kind!r}")
    if command.member_id in seated.forfeits:
        raise AlreadyExists("forfeit", f"{command.member_id} in {where.rsplit(' table ', 1)[0]}")
    return ForfeitRecorded(
        league_id=command.league_id,
        tournament_id=command.tournament_id,
        round=command.round,
        table=command.table,
        member_id=command.member_id,
        kind=command.kind,
        reason=_reason(command.reason, required=False),
        recorded_by=command.recorded_by,
    )


def _seat(state: LeagueState, command: SeatRound) -> RoundSeated:
    tournament = state.tournament(command.tournament_id)
    season = state.open_season(tournament.season_id)
    if command.round in tournament.rounds:
        raise RoundAlreadySeated(command.tournament_id, command.round)
    if command.round != len(tournament.rounds) + 1:
        raise InvalidTransition(
            f"tournament {command.tournament_id!r} seats round {len(tournament.rounds) + 1} next, "
            f"not round {command.round}"
        )
    entrants = list(season.entrants if command.entrants is None else command.entrants)
    where = f"season {season.season_id!r}"
    for member in entrants:
        if member not in season.entrants:
            raise UnknownPlayer(member, where)
    if command.tables is None:
        seating = seat_round(
            entrants,
            scores=command.scores,
            history=season.history,
            policy=tournament.seating,
            seed=command.seed,
        )
    else:
        seating = _organisers_tables(command.tables, entrants, season, where, state.game_type)
    return RoundSeated(
        league_id=command.league_id,
        season_id=season.season_id,
        tournament_id=command.tournament_id,
        round=command.round,
        seed=command.seed,
        tables=tuple(
            SeatedTable(table=t.number, members=t.members, sheriff=t.sheriff) for t in seating.tables
        ),
        byes=seating.byes,
        scores={m: float(command.scores.get(m, 0.0)) for m in sorted(entrants)},
    )


def _organisers_tables(
    tables: tuple[tuple[str, ...], ...], entrants: list[str], season: SeasonState, where: str, game_type: str
) -> Seating:
    seen: set[str] = set()
    for members in tables:
        check_table_size(len(members), game_type)
        for member in members:
            if member not in season.entrants:
                raise UnknownPlayer(member, where)
            if member in seen:
                raise PlayerSeatedTwice(member)
            seen.add(member)
    byes = tuple(sorted(m for m in entrants if m not in seen))
    seated = tuple(
        Table(number, members, pick_sheriff(members, season.history))
        for number, members in enumerate(tables, start=1)
    )
    return Seating(seated, byes)


def evolve(state: LeagueState, event: LeagueEvent) -> LeagueState:
    match event:
        case LeagueFounded():
            state.league_id, state.club_id, state.name = event.league_id, event.club_id, event.name
            state.points, state.seating = event.points, event.seating
            state.game_type, state.visibility = event.game_type, event.visibility
            state.decision_seconds = event.decision_seconds
        case LeagueVisibilityChanged():
            state.visibility = event.visibility
        case SeasonOpened():
            state.seasons[event.season_id] = SeasonState(event.season_id, event.name, event.points)
        case PlayerEnrolled():
            state.seasons[event.season_id].entrants.append(event.member_id)
        case TournamentOpened():
            state.tournaments[event.tournament_id] = TournamentState(
                event.tournament_id, event.season_id, event.name, event.seating
            )
            state.seasons[event.season_id].tournaments.append(event.tournament_id)
        case RoundSeated():
            tournament = state.tournaments[event.tournament_id]
            tournament.rounds[event.round] = RoundState(event.round, event.tables, event.byes)
            state.seasons[event.season_id].history.record(
                ((t.members, t.sheriff) for t in event.tables), event.byes
            )
        case GameScheduled():
            state.tournaments[event.tournament_id].rounds[event.round].games[event.table] = event.game_id
            state.games[event.game_id] = (event.tournament_id, event.round, event.table)
            state.modes[event.game_id] = event.mode
        case ForfeitRecorded():
            state.tournaments[event.tournament_id].rounds[event.round].forfeits[event.member_id] = event.kind
        case RoundClosed():
            state.tournaments[event.tournament_id].rounds[event.round].closed = True
        case GameVoided():
            state.voided[event.game_id] = event.reason
        case ResultSheetRecorded():
            state.sheets.add(event.game_id)
        case SeasonClosed():
            state.seasons[event.season_id].closed = True
    return state


def fold(events: Iterable[LeagueEvent]) -> LeagueState:
    state = LeagueState()
    for event in events:
        evolve(state, event)
    return state


__all__ = [
    "LeagueState",
    "RoundState",
    "SeasonState",
    "TournamentState",
    "decide",
    "evolve",
    "fold",
    "has_sheriff",
    "league_stream",
]
