"""League management as the public API offers it: the signed-in caller's league commands.

Every method takes the caller's clubs ``Principal``, checks their role in the league's club
(``services.clubs.roles.require``: an organiser or admin there, a referee too for a void), and
runs ``LeagueService`` commands. A refusal is raised before anything is written.

* **The league's club mirror.** The club id of ``services/clubs`` is the league's club id; the
  league's own ``club-<id>`` stream (``ClubFounded``, ``PlayerRegistered``) is kept as a mirror,
  written idempotently (command ids ``mirror/club/<club>``, ``mirror/member/<club>/<account>``)
  before a league is founded and before a member is enrolled.
* **Idempotency.** Every command carries the request's ``command_id`` (a fresh uuid when absent);
  ids the caller leaves out are derived from it, so a retried request finds what the first one
  made and answers with it (``Done.new`` False: 200 instead of 201).
* **Scheduling** (docs/league.md, "Integrity"): the game id is reserved for its table first
  (``reservations.reserve``), then ``GameScheduled`` recorded, then a table game's scorekeeper is
  granted ``scorekeeper`` for that game alone, or an online game is created through the game
  gateway with the seating's members in order and the rotation's Sheriff: exactly what the
  reservation says, so the gateway's own check passes it.
"""

from __future__ import annotations

import contextlib
import secrets
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Generic, TypeVar

import asyncpg
import msgspec

from services.clubs.errors import ClubNotFound, ScorekeeperSeated
from services.clubs.names import name_book
from services.clubs.roles import Principal, Role, require
from services.clubs.service import ClubService, is_member, without_login
from services.game.application.codec import game_stream
from services.game.application.errors import GameIdTaken, GameNotFound
from services.game.application.lifecycle import GameContext, GameMode, GameOptions, SeatReplaced, seat_id
from services.game.application.service import Member, NewGame, TableSeat, check_new_ruleset
from services.game.application.session import GameSession, GameStatus
from services.game.edge.gateway import Created, GameGateway
from services.game.edge.http import RulesetIn
from services.game.edge.tokens import Principal as GameCaller
from services.game.results import GameType
from services.league import league as league_aggregate
from services.league.commands import (
    CloseRound,
    CloseSeason,
    EnrollPlayers,
    FoundClub,
    FoundLeague,
    LeagueAggregateCommand,
    OpenSeason,
    OpenTournament,
    RecordForfeit,
    RecordResultSheet,
    RegisterPlayer,
    ScheduleGame,
    SeatRound,
    SetLeagueVisibility,
    VoidGame,
)
from services.league.errors import (
    AlreadyExists,
    InvalidCommand,
    InvalidTransition,
    UnknownEntity,
    UnknownPlayer,
)
from services.league.events import (
    ForfeitRecorded,
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
    TournamentOpened,
)
from services.league.league import LeagueState
from services.league.read_model import season_scores
from services.league.reservations import Reservation, mark_result_sheet, reservation, reserve
from services.league.result_sheet import EIGHT_PLAYERS, NOT_REPLAYABLE, ResultSheet
from services.league.service import CommandResult, LeagueService
from services.league.visibility import readable_league
from services.league.vocabulary import DEFAULT_DECISION_SECONDS, MEMBERS_ONLY, PointsScheme, SeatingPolicy
from services.runtime.idempotency import CommandIdReused

T = TypeVar("T")
_IDS = uuid.UUID("6f0c3d2e-8a41-4b7e-9d15-3c2a7e9b0f48")
ORGANISING = (Role.ORGANISER, Role.ADMIN)
VOIDING = (Role.REFEREE, Role.ORGANISER, Role.ADMIN)
SHEET_KEEPING = (Role.SCOREKEEPER, *VOIDING)
"""Who enters a table's result sheet: its scorekeeper (the role scoped to that game), or a
referee, organiser or admin of the club."""


# -- answers ----------------------------------------------------------------------------------


class Person(msgspec.Struct, frozen=True, kw_only=True):
    member_id: str
    display_name: str


class LeagueAnswer(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    club_id: str
    name: str
    points: PointsScheme
    seating: SeatingPolicy
    game_type: str
    """``dice`` or ``cards``: every game of the league is of this type."""
    visibility: str
    """``public`` (anyone may read it) or ``members`` (its club's members only)."""
    decision_seconds: int = DEFAULT_DECISION_SECONDS
    """Each decision's time in the league's online games."""


class VisibilityAnswer(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    visibility: str
    """``public`` (anyone may read it) or ``members`` (its club's members only)."""


class SeasonAnswer(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    season_id: str
    name: str
    points: PointsScheme


class EnrolmentAnswer(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    season_id: str
    enrolled: list[Person]


class TournamentAnswer(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    season_id: str
    tournament_id: str
    name: str
    seating: SeatingPolicy


class TableAnswer(msgspec.Struct, frozen=True, kw_only=True):
    table: int
    members: list[Person]
    """In the seating's order: an online game's seats."""
    sheriff: Person | None
    """The rotation's Sheriff; None at a three-player table."""


class RoundAnswer(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    season_id: str
    tournament_id: str
    round: int
    tables: list[TableAnswer]
    byes: list[Person]


class ScheduledAnswer(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    tournament_id: str
    round: int
    table: int
    game_id: str
    mode: str
    members: list[Person]
    sheriff: Person | None
    scorekeeper: Person | None
    """A table game's scorekeeper, granted ``scorekeeper`` for this game alone."""
    game_created: bool
    """An online game exists now (created with this schedule); a table game is created by its
    scorekeeper (or an organiser) when the table starts."""
    starts_at: datetime | None = None
    """When the table plays, as scheduled (None: not said)."""
    ruleset: str | None = None
    """The scheduled rules (``dice OS1``; None: the league's base game)."""
    decision_timeout_seconds: int | None = None
    """The decision timer: a table game's as scheduled (None: none), an online game's as it was
    created (the league's ``decision_seconds`` unless the schedule set one)."""
    without_login: list[Person] = []
    """The table's members who cannot sign in yet (registered by name, no login): an online
    game waits on them until they do, a timeout plays for them, or their seat is replaced. Send
    each a login link (``POST /clubs/{club_id}/members/{member_id}/login-link``)."""


class ScheduleOfGame(msgspec.Struct, frozen=True, kw_only=True):
    """Where a league scheduled a game id: what a page needs to open the table's schedule page
    before the game exists (no seat, no role)."""

    game_id: str
    league_id: str
    tournament_id: str
    round: int
    table: int
    mode: str


class StartSeat(msgspec.Struct, frozen=True, kw_only=True):
    """A seat of a table game as dealt at the physical table: the member (one of the table's),
    the role card and the character as the engine names them, OS3's special role card."""

    member_id: str
    role: str
    character: str
    special: str | None = None


class SeatLine(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    member: Person | None
    """Who holds the seat now; None when a bot plays it."""
    bot: bool
    has_login: bool
    """False: a member registered by name who cannot sign in yet (send him a login link)."""
    timeouts: int
    """Decisions of this seat that ran out of time since its holder took it."""


class SeatsAnswer(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    game_id: str
    status: str
    decision_timeout_seconds: int | None
    seats: list[SeatLine]
    waiting_on: str | None
    """The seat whose decision the game awaits (None: nobody's, or the game is over)."""
    waiting_since: datetime | None
    due_at: datetime | None
    """When the awaited decision's time runs out (None: the game has no time limit)."""
    overdue: bool
    """The awaited decision is past its time: the server plays its default within seconds."""
    warnings: list[str]
    """In words, what keeps the game from moving: a seat whose holder cannot sign in, a seat
    that keeps running out of time, a decision past its time."""
    replacements: list[dict[str, object]]
    """Every seat that changed hands, in order (seat, replaced, member_id or None for a bot, name, turn)."""


class SeatReplacedAnswer(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    game_id: str
    seat: str
    replaced: Person | None
    """Who held the seat until now; None: a bot did."""
    substitute: Person | None
    """None: a bot plays the seat from now on."""
    bot: bool
    turn: int
    """The game's turn when the seat changed hands."""
    version: int


class ForfeitAnswer(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    tournament_id: str
    round: int
    table: int
    member: Person
    kind: str
    reason: str


class SheetSeatAnswer(msgspec.Struct, frozen=True, kw_only=True):
    seat: str
    member: Person
    role: str
    character: str
    side: str
    alive: bool
    won: bool


class SheetEliminationAnswer(msgspec.Struct, frozen=True, kw_only=True):
    member: Person
    by: Person | None
    """None: nobody (Dynamite, his own Duel)."""
    turn: int


class ResultSheetAnswer(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    tournament_id: str
    round: int
    table: int
    game_id: str
    game_type: str
    replayable: bool
    """Always false: a game played on cardboard has no record to replay or audit."""
    shown_as: str
    """``result sheet — not replayable``."""
    winning_side: str
    seats: list[SheetSeatAnswer]
    eliminations: list[SheetEliminationAnswer]


class GameAuditAnswer(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    game_id: str
    replayable: bool
    audit: str
    """In words: a game played on cardboard has nothing to audit by replay; any other game is
    audited by replaying its record at ``/games/{id}/audit``."""


class RoundClosedAnswer(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    tournament_id: str
    round: int


class SeasonClosedAnswer(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    season_id: str


class VoidAnswer(msgspec.Struct, frozen=True, kw_only=True):
    league_id: str
    game_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class Done(Generic[T]):
    answer: T
    new: bool
    """False when this command id was applied before (or asked for what is already so)."""


def command_id_or_new(command_id: str | None) -> str:
    return command_id if command_id is not None else uuid.uuid4().hex


def derived_id(kind: str, command_id: str, scope: str) -> str:
    """An id the caller left out: from the command id, so a retry names the same thing."""
    return uuid.uuid5(_IDS, f"{kind}/{scope}/{command_id}").hex


class LeagueOrganiser:
    def __init__(
        self, league: LeagueService, clubs: ClubService, gateway: GameGateway, pool: asyncpg.Pool
    ) -> None:
        self._league = league
        self._clubs = clubs
        self._gateway = gateway
        self._pool = pool

    # -- founding and opening ---------------------------------------------------------------

    async def found_league(
        self,
        caller: Principal,
        club_id: str,
        *,
        name: str,
        league_id: str | None = None,
        points: PointsScheme | None = None,
        seating: SeatingPolicy | None = None,
        game_type: str = GameType.DICE.value,
        visibility: str = MEMBERS_ONLY,
        decision_seconds: int = DEFAULT_DECISION_SECONDS,
        command_id: str | None = None,
    ) -> Done[LeagueAnswer]:
        require(caller, club_id, *ORGANISING)
        command_id = command_id_or_new(command_id)
        league_id = league_id or derived_id("league", command_id, club_id)
        command = FoundLeague(
            league_id=league_id,
            club_id=club_id,
            name=name,
            points=points or PointsScheme(),
            seating=seating or SeatingPolicy(),
            game_type=game_type,
            visibility=visibility,
            decision_seconds=decision_seconds,
        )
        existing = await self._league.load_league(league_id)
        if existing.exists and existing.club_id != club_id:
            # a league id is global: another club's league keeps it (and says nothing of itself)
            raise AlreadyExists("league", league_id)
        league_aggregate.decide(LeagueState(), command)  # refuse a bad id or scheme before the mirror
        await self._mirror_club(club_id)
        result = await self._run(command, command_id, caller)
        founded = _only(result, LeagueFounded, command_id)
        answer = LeagueAnswer(
            league_id=founded.league_id,
            club_id=founded.club_id,
            name=founded.name,
            points=founded.points,
            seating=founded.seating,
            game_type=founded.game_type,
            visibility=founded.visibility,
            decision_seconds=founded.decision_seconds,
        )
        return Done(answer, not result.duplicate)

    async def set_visibility(
        self, caller: Principal, league_id: str, *, visibility: str, command_id: str | None = None
    ) -> Done[VisibilityAnswer]:
        """Make the league public or members-only (an organiser or admin of its club); asking
        for what it is already changes nothing (``Done.new`` False)."""
        await self._organised(caller, league_id)
        command = SetLeagueVisibility(
            league_id=league_id, visibility=visibility, changed_by=caller.account_id
        )
        result = await self._run(command, command_id_or_new(command_id), caller)
        now = (await self._league.load_league(league_id)).visibility
        for event in result.events:
            if isinstance(event, LeagueVisibilityChanged):
                now = event.visibility
        new = bool(result.events) and not result.duplicate
        return Done(VisibilityAnswer(league_id=league_id, visibility=now), new)

    async def open_season(
        self,
        caller: Principal,
        league_id: str,
        *,
        name: str,
        season_id: str | None = None,
        points: PointsScheme | None = None,
        command_id: str | None = None,
    ) -> Done[SeasonAnswer]:
        await self._organised(caller, league_id)
        command_id = command_id_or_new(command_id)
        season_id = season_id or derived_id("season", command_id, league_id)
        command = OpenSeason(league_id=league_id, season_id=season_id, name=name, points=points)
        result = await self._run(command, command_id, caller)
        opened = _only(result, SeasonOpened, command_id)
        answer = SeasonAnswer(
            league_id=league_id, season_id=opened.season_id, name=opened.name, points=opened.points
        )
        return Done(answer, not result.duplicate)

    async def enrol(
        self,
        caller: Principal,
        league_id: str,
        season_id: str,
        member_ids: Iterable[str],
        *,
        command_id: str | None = None,
    ) -> Done[EnrolmentAnswer]:
        state = await self._organised(caller, league_id)
        command_id = command_id_or_new(command_id)
        command = EnrollPlayers(league_id=league_id, season_id=season_id, member_ids=tuple(member_ids))
        if not await self._applied(command, command_id, caller):
            # all of them or none: every member is checked before the first write
            for member_id in command.member_ids:
                if not await is_member(self._pool, state.club_id, member_id):
                    raise UnknownPlayer(member_id, f"club {state.club_id!r} (enrol only its members)")
            league_aggregate.decide(state, command)
            names = await self._names(state, command.member_ids)
            for member_id in command.member_ids:
                await self._mirror_member(state.club_id, member_id, names[member_id])
        result = await self._run(command, command_id, caller)
        enrolled = [e.member_id for e in result.events if isinstance(e, PlayerEnrolled)]
        names = await self._names(state, enrolled)
        answer = EnrolmentAnswer(
            league_id=league_id, season_id=season_id, enrolled=[_person(m, names) for m in enrolled]
        )
        return Done(answer, not result.duplicate)

    async def open_tournament(
        self,
        caller: Principal,
        league_id: str,
        season_id: str,
        *,
        name: str,
        tournament_id: str | None = None,
        seating: SeatingPolicy | None = None,
        command_id: str | None = None,
    ) -> Done[TournamentAnswer]:
        await self._organised(caller, league_id)
        command_id = command_id_or_new(command_id)
        tournament_id = tournament_id or derived_id("tournament", command_id, league_id)
        command = OpenTournament(
            league_id=league_id, season_id=season_id, tournament_id=tournament_id, name=name, seating=seating
        )
        result = await self._run(command, command_id, caller)
        opened = _only(result, TournamentOpened, command_id)
        answer = TournamentAnswer(
            league_id=league_id,
            season_id=opened.season_id,
            tournament_id=opened.tournament_id,
            name=opened.name,
            seating=opened.seating,
        )
        return Done(answer, not result.duplicate)

    # -- rounds -----------------------------------------------------------------------------

    async def seat_round(
        self,
        caller: Principal,
        league_id: str,
        tournament_id: str,
        *,
        round_number: int | None = None,
        seed: str | None = None,
        tables: tuple[tuple[str, ...], ...] | None = None,
        command_id: str | None = None,
    ) -> Done[RoundAnswer]:
        """Seat the next round: Swiss on the season's standings points, the Sheriff by the
        rotation (or the organiser's own ``tables``, the Sheriff still by the rotation)."""
        state = await self._organised(caller, league_id)
        command_id = command_id_or_new(command_id)
        tournament = state.tournament(tournament_id)
        number = round_number if round_number is not None else len(tournament.rounds) + 1
        scores = await season_scores(self._pool, league_id, tournament.season_id)
        command = SeatRound(
            league_id=league_id,
            tournament_id=tournament_id,
            round=number,
            seed=seed if seed is not None else secrets.token_hex(8),
            scores=scores,
            tables=tables,
        )
        # what the caller asked: the round's number and seed only when given (the server picks
        # them otherwise, and a retry must not pick others), never the standings' scores
        asked = {"tournament_id": tournament_id, "round": round_number, "seed": seed, "tables": tables}
        result = await self._run(command, command_id, caller, asked)
        seated = _only(result, RoundSeated, command_id)
        names = await self._names(state, [*(m for t in seated.tables for m in t.members), *seated.byes])
        answer = RoundAnswer(
            league_id=league_id,
            season_id=seated.season_id,
            tournament_id=tournament_id,
            round=seated.round,
            tables=[
                TableAnswer(
                    table=t.table,
                    members=[_person(m, names) for m in t.members],
                    sheriff=None if t.sheriff is None else _person(t.sheriff, names),
                )
                for t in seated.tables
            ],
            byes=[_person(m, names) for m in seated.byes],
        )
        return Done(answer, not result.duplicate)

    async def schedule(
        self,
        caller: Principal,
        league_id: str,
        tournament_id: str,
        round_number: int,
        table: int,
        *,
        mode: GameMode,
        game_id: str | None = None,
        scorekeeper: str | None = None,
        setup: NewGame | None = None,
        starts_at: datetime | None = None,
        command_id: str | None = None,
    ) -> Done[ScheduledAnswer]:
        """``setup``: the game's ruleset and options (its other fields are the schedule's): an
        online game is created with them now, a table game's scorekeeper starts it with them
        (``start_table_game``). ``starts_at``: when the table plays (timezone-aware)."""
        state = await self._organised(caller, league_id)
        command_id = command_id_or_new(command_id)
        game_id = game_id or "g-" + derived_id("game", command_id, league_id)
        if starts_at is not None and starts_at.tzinfo is None:
            raise InvalidCommand("`starts_at`: give the time with its UTC offset (2026-11-28T19:30:00+01:00)")
        seated = state.round(tournament_id, round_number).table(tournament_id, table)
        if setup is not None:
            check_new_ruleset(setup.ruleset, len(seated.members))  # 422 naming why, nothing stored
        command = ScheduleGame(
            league_id=league_id,
            tournament_id=tournament_id,
            round=round_number,
            table=table,
            game_id=game_id,
            mode=str(mode),
            scorekeeper=scorekeeper,
            scheduled_by=caller.account_id,
            starts_at=None if starts_at is None else starts_at.isoformat(),
            ruleset=None if setup is None else setup.ruleset.text,
            decision_timeout_seconds=None if setup is None else setup.options.decision_timeout_seconds,
        )
        # what the caller asked: the schedule, and the game's ruleset and options when given
        asked = None
        if setup is not None:
            chosen = {"ruleset": setup.ruleset, "options": setup.options}
            asked = {"schedule": command, "setup": chosen}
        if scorekeeper is not None and not await is_member(self._pool, state.club_id, scorekeeper):
            raise InvalidCommand(f"`scorekeeper`: {scorekeeper!r} is not a member of club {state.club_id!r}")
        if scorekeeper is not None and scorekeeper in seated.members:
            # the scorekeeper sees every role and hand at the table: never one of its players
            seat = seated.members.index(scorekeeper) + 1
            name = (await self._names(state, [scorekeeper]))[scorekeeper]
            raise ScorekeeperSeated("scorekeeper", f"{name} (seat {seat} at table {table})", game_id)
        if setup is not None and str(setup.ruleset.game_type) != state.game_type:
            raise InvalidCommand(
                f"league {league_id!r} plays {state.game_type}: its games cannot be "
                f"{setup.ruleset.game_type} games"
            )
        if setup is None and state.game_type != GameType.DICE:
            # the game server's default ruleset is the dice game's; a card table of 8 plays the
            # two-Renegade set, a recorded option of the card game
            size = len(state.round(tournament_id, round_number).table(tournament_id, table).members)
            options = [EIGHT_PLAYERS] if state.game_type == GameType.CARDS and size == 8 else []
            ruleset = RulesetIn(game_type=state.game_type, options=options).to_ruleset()
            setup = NewGame(mode=GameMode.ONLINE, player_count=0, ruleset=ruleset)
        if not await self._applied(command, command_id, caller, asked):
            league_aggregate.decide(state, command)  # refuse before the id is reserved
        wanted = Reservation(
            game_id=game_id,
            league_id=league_id,
            club_id=state.club_id,
            season_id=state.tournament(tournament_id).season_id,
            tournament_id=tournament_id,
            round=round_number,
            table=table,
            mode=str(mode),
            members=seated.members,
            sheriff=seated.sheriff,
            scorekeeper=scorekeeper,
            scheduled_by=caller.account_id,
            game_type=state.game_type,
            starts_at=starts_at,
            ruleset=command.ruleset,
            decision_timeout_seconds=command.decision_timeout_seconds,
        )
        if mode is GameMode.ONLINE:
            # the league's decision time, unless this schedule set one (docs/league.md)
            setup = setup or NewGame(mode=GameMode.ONLINE, player_count=0)
            if setup.options.decision_timeout_seconds is None:
                limit = state.decision_seconds
                timed = msgspec.structs.replace(setup.options, decision_timeout_seconds=limit)
                setup = msgspec.structs.replace(setup, options=timed)
        held = await reserve(self._pool, wanted)
        # the same reservation, whoever made it and whether its sheet is in since (a retry)
        if msgspec.structs.replace(held, scheduled_by=wanted.scheduled_by, result_sheet=False) != wanted:
            raise AlreadyExists(
                "reservation",
                f"{held.game_id} holds {held.where()} ({held.mode}); "
                f"game id {game_id!r} or this table is scheduled already",
            )
        result = await self._run(command, command_id, caller, asked)
        names = await self._names(state, [*seated.members, *([scorekeeper] if scorekeeper else [])])
        unable = await without_login(self._pool, seated.members)
        created = False
        if mode is GameMode.TABLE:
            if scorekeeper is not None:
                await self._clubs.grant_scorekeeper(caller, state.club_id, scorekeeper, game_id)
        else:
            created = await self._create_online(caller, wanted, names, setup, command_id)
        answer = ScheduledAnswer(
            league_id=league_id,
            tournament_id=tournament_id,
            round=round_number,
            table=table,
            game_id=game_id,
            mode=str(mode),
            members=[_person(m, names) for m in seated.members],
            sheriff=None if seated.sheriff is None else _person(seated.sheriff, names),
            scorekeeper=None if scorekeeper is None else _person(scorekeeper, names),
            game_created=created,
            starts_at=held.starts_at,
            ruleset=held.ruleset,
            decision_timeout_seconds=held.decision_timeout_seconds
            if mode is GameMode.TABLE or setup is None
            else setup.options.decision_timeout_seconds,
            without_login=[_person(m, names) for m in seated.members if m in unable],
        )
        return Done(answer, bool(result.events) and not result.duplicate)

    async def _create_online(
        self,
        caller: Principal,
        held: Reservation,
        names: dict[str, str],
        setup: NewGame | None,
        command_id: str,
    ) -> bool:
        spec = msgspec.structs.replace(
            setup or NewGame(mode=GameMode.ONLINE, player_count=len(held.members)),
            mode=GameMode.ONLINE,
            player_count=len(held.members),
            members=tuple(Member(member_id=m, name=names.get(m, m)) for m in held.members),
            seats=None,
            sheriff_member=held.sheriff,
            context=GameContext(
                league_id=held.league_id,
                season_id=held.season_id,
                tournament_id=held.tournament_id,
                round=held.round,
                table=held.table,
            ),
            game_id=held.game_id,
        )
        with contextlib.suppress(GameIdTaken):  # created before (a retry under another command id)
            await self._gateway.create_game(GameCaller.of_account(caller), spec, f"schedule/{command_id}")
        return True

    async def start_table_game(
        self,
        caller: Principal,
        league_id: str,
        tournament_id: str,
        round_number: int,
        table: int,
        *,
        seats: tuple[StartSeat, ...] | None,
        command_id: str | None = None,
    ) -> Created:
        """Create a scheduled table's game as its schedule describes it (the reserved id, the
        league context, the ruleset and decision timer), by its scorekeeper or a referee,
        organiser or admin of the club: with ``seats`` as dealt at the physical table
        (clockwise, the table's members by id), or, with ``seats`` None, dealt by the server
        (``NewGame.dealt_by_server``)."""
        state = await self._league.load_league(league_id)
        if not state.exists:
            raise UnknownEntity("league", league_id)
        # as a result sheet: nobody learns of a round before the roles are checked, and the
        # scorekeeper goes by the grant for that game as it stands now
        tournament = state.tournaments.get(tournament_id)
        seated = None if tournament is None else tournament.rounds.get(round_number)
        game_id = None if seated is None else seated.games.get(table)
        require(caller, state.club_id, *SHEET_KEEPING, game_id=game_id)
        members = state.round(tournament_id, round_number).table(tournament_id, table).members
        held = None if game_id is None else await reservation(self._pool, game_id)
        if game_id is None or held is None:
            raise UnknownEntity(
                "game", f"at {tournament_id} round {round_number} table {table}: schedule it first"
            )
        if held.mode != GameMode.TABLE:
            raise InvalidCommand(f"game {game_id!r} is an online game: it was created when it was scheduled")
        names = await self._names(state, members)
        if held.ruleset is not None:
            # ``Ruleset.text`` read back: the game type, then the card game's options or the
            # dice game's modules
            game_type, *words = held.ruleset.split()
            cards = game_type == GameType.CARDS
            ruleset = RulesetIn(
                game_type=game_type, modules=[] if cards else words, options=words if cards else []
            ).to_ruleset()
        else:
            options = [EIGHT_PLAYERS] if held.game_type == GameType.CARDS and len(members) == 8 else []
            ruleset = RulesetIn(game_type=held.game_type, options=options).to_ruleset()
        base = NewGame(
            mode=GameMode.TABLE,
            player_count=len(members),
            context=GameContext(
                league_id=league_id,
                season_id=held.season_id,
                tournament_id=tournament_id,
                round=round_number,
                table=table,
            ),
            options=GameOptions(decision_timeout_seconds=held.decision_timeout_seconds),
            game_id=game_id,
            ruleset=ruleset,
        )
        if seats is None:
            spec = msgspec.structs.replace(
                base,
                members=tuple(Member(member_id=m, name=names[m]) for m in members),
                sheriff_member=held.sheriff,
                dealt_by_server=True,
            )
        else:
            strangers = [s.member_id for s in seats if s.member_id not in names]
            if strangers:
                raise InvalidCommand(
                    f"`seats`: {', '.join(strangers)} not seated at table {table}; its players are "
                    + ", ".join(names[m] for m in members)
                )
            spec = msgspec.structs.replace(
                base,
                seats=tuple(
                    TableSeat(
                        member_id=s.member_id,
                        name=names[s.member_id],
                        role=s.role,
                        character=s.character,
                        special=s.special,
                    )
                    for s in seats
                ),
            )
        command_id = command_id_or_new(command_id)
        return await self._gateway.create_game(GameCaller.of_account(caller), spec, f"start/{command_id}")

    async def record_result_sheet(
        self,
        caller: Principal,
        league_id: str,
        tournament_id: str,
        round_number: int,
        table: int,
        *,
        sheet: ResultSheet,
        command_id: str | None = None,
    ) -> Done[ResultSheetAnswer]:
        """The sheet of a card game played entirely on cardboard, for the game scheduled at that
        table: entered by its scorekeeper, or a referee, organiser or admin of the club."""
        state = await self._league.load_league(league_id)
        if not state.exists:
            raise UnknownEntity("league", league_id)
        # who may enter it depends on the table's game, but nobody learns of a round before
        # the roles are checked. The scorekeeper goes by the grant the schedule made for that
        # game, as the game server's moves do, not by the name on the reservation: a revoked
        # grant (or a member no longer in the club) enters nothing
        tournament = state.tournaments.get(tournament_id)
        seated = None if tournament is None else tournament.rounds.get(round_number)
        game_id = None if seated is None else seated.games.get(table)
        require(caller, state.club_id, *SHEET_KEEPING, game_id=game_id)
        state.round(tournament_id, round_number).table(tournament_id, table)
        if game_id is None:
            raise UnknownEntity(
                "game", f"at {tournament_id} round {round_number} table {table}: schedule it first"
            )
        command_id = command_id_or_new(command_id)
        command = RecordResultSheet(
            league_id=league_id,
            tournament_id=tournament_id,
            round=round_number,
            table=table,
            game_id=game_id,
            sheet=sheet,
            recorded_by=caller.account_id,
        )
        if not await self._applied(command, command_id, caller):
            league_aggregate.decide(state, command)  # a bad sheet is refused before anything else
            if await self._league.store.read_stream(game_stream(game_id)):
                raise AlreadyExists(
                    "game", f"{game_id} on the server: a result sheet is only for a game played on cardboard"
                )
        result = await self._run(command, command_id, caller)
        recorded = _only(result, ResultSheetRecorded, command_id)
        if recorded.game_id != game_id:
            # the id recorded another table's sheet: marking this table would leave it played on
            # cardboard with no sheet, its game never to be created
            raise InvalidTransition(
                f"command id {command_id!r} recorded the sheet of game {recorded.game_id!r}, not of "
                f"{game_id!r}; send this sheet under a new command id"
            )
        await mark_result_sheet(self._pool, recorded.game_id)
        names = await self._names(state, [s.member_id for s in recorded.result.seats])
        member_of = {s.seat: s.member_id for s in recorded.result.seats}
        answer = ResultSheetAnswer(
            league_id=league_id,
            tournament_id=tournament_id,
            round=recorded.round,
            table=recorded.table,
            game_id=recorded.game_id,
            game_type=recorded.result.game_type,
            replayable=recorded.replayable,
            shown_as=NOT_REPLAYABLE,
            winning_side=recorded.result.winning_side or "",
            seats=[
                SheetSeatAnswer(
                    seat=s.seat,
                    member=_person(s.member_id, names),
                    role=s.role,
                    character=character,
                    side=s.side,
                    alive=s.alive,
                    won=s.won,
                )
                for s, character in zip(recorded.result.seats, recorded.characters, strict=True)
            ],
            eliminations=[
                SheetEliminationAnswer(
                    member=_person(member_of[e.seat], names),
                    by=None if e.by is None else _person(member_of[e.by], names),
                    turn=e.turn,
                )
                for e in recorded.result.eliminations
            ],
        )
        return Done(answer, not result.duplicate)

    async def schedule_of(self, caller: Principal | None, game_id: str) -> ScheduleOfGame:
        """The league table a game id is scheduled for, to whoever may read that league (the
        league's own rule: 401/403 for a members-only league); 404 for an id no league scheduled."""
        held = await reservation(self._pool, game_id)
        if held is None:
            raise UnknownEntity("game", f"{game_id}: no league scheduled it")
        await readable_league(self._pool, caller, held.league_id)
        return ScheduleOfGame(
            game_id=game_id,
            league_id=held.league_id,
            tournament_id=held.tournament_id,
            round=held.round,
            table=held.table,
            mode=held.mode,
        )

    async def game_audit(self, caller: Principal | None, league_id: str, game_id: str) -> GameAuditAnswer:
        """How one of the league's games is audited (whoever may read the league may ask)."""
        await readable_league(self._pool, caller, league_id)
        state = await self._league.load_league(league_id)
        if game_id not in state.games:
            raise UnknownEntity("game", f"{game_id} in league {league_id}")
        if game_id in state.sheets:
            words = (
                f"{NOT_REPLAYABLE}: game {game_id!r} was played entirely on cardboard and is known only "
                "from its result sheet, so there is nothing to audit by replay; the sheet was checked for "
                "consistency (roles, characters, eliminations, the winning side) when it was recorded"
            )
            return GameAuditAnswer(league_id=league_id, game_id=game_id, replayable=False, audit=words)
        words = f"replay its record: GET /games/{game_id}/audit recomputes its outputs from its inputs"
        return GameAuditAnswer(league_id=league_id, game_id=game_id, replayable=True, audit=words)

    async def forfeit(
        self,
        caller: Principal,
        league_id: str,
        tournament_id: str,
        round_number: int,
        *,
        table: int,
        member_id: str,
        kind: str,
        reason: str = "",
        command_id: str | None = None,
    ) -> Done[ForfeitAnswer]:
        state = await self._organised(caller, league_id)
        command = RecordForfeit(
            league_id=league_id,
            tournament_id=tournament_id,
            round=round_number,
            table=table,
            member_id=member_id,
            kind=kind,
            reason=reason,
            recorded_by=caller.account_id,
        )
        result = await self._run(command, command_id_or_new(command_id), caller)
        recorded = _only(result, ForfeitRecorded, command_id)
        names = await self._names(state, [recorded.member_id])
        answer = ForfeitAnswer(
            league_id=league_id,
            tournament_id=tournament_id,
            round=recorded.round,
            table=recorded.table,
            member=_person(recorded.member_id, names),
            kind=recorded.kind,
            reason=recorded.reason,
        )
        return Done(answer, not result.duplicate)

    async def close_round(
        self,
        caller: Principal,
        league_id: str,
        tournament_id: str,
        round_number: int,
        *,
        command_id: str | None = None,
    ) -> Done[RoundClosedAnswer]:
        await self._organised(caller, league_id)
        command = CloseRound(
            league_id=league_id, tournament_id=tournament_id, round=round_number, closed_by=caller.account_id
        )
        result = await self._run(command, command_id_or_new(command_id), caller)
        closed = _only(result, RoundClosed, command_id)
        answer = RoundClosedAnswer(league_id=league_id, tournament_id=tournament_id, round=closed.round)
        return Done(answer, not result.duplicate)

    async def seats(self, caller: Principal, league_id: str, game_id: str) -> SeatsAnswer:
        """A league game's seats and what keeps it from moving (a referee, an organiser or an
        admin of the league's club)."""
        state = await self._organised(caller, league_id, *VOIDING)
        session = await self._league_game(state, game_id)
        holders = [session.seat_members.get(seat_id(i)) for i in range(session.created.player_count)]
        members = [m for m in holders if m is not None]
        names = await self._names(state, members)
        unable = await without_login(self._pool, members)
        lines = [
            SeatLine(
                seat=seat_id(i),
                member=None if m is None else _person(m, names),
                bot=seat_id(i) in session.bot_seats,
                has_login=m is not None and m not in unable,
                timeouts=session.timeouts.get(seat_id(i), 0),
            )
            for i, m in enumerate(holders)
        ]
        limit = session.created.options.decision_timeout_seconds
        question = None
        if session.status is GameStatus.ONGOING and session.game is not None:
            question = session.engine.question(session.game)
        waiting = None if question is None or question.random or question.table else question.player
        since = session.last_event_at if waiting is not None else None
        due = None if since is None or limit is None else since + timedelta(seconds=limit)
        overdue = due is not None and datetime.now(UTC) > due
        warnings = []
        for line in lines:
            who = "a bot" if line.member is None else line.member.display_name
            if line.member is not None and not line.has_login:
                warnings.append(
                    f"{who} (seat {line.seat}) has no login and cannot play: "
                    "send a login link, or replace the seat"
                )
            if line.timeouts:
                times = "once" if line.timeouts == 1 else f"{line.timeouts} times"
                warnings.append(f"{who} (seat {line.seat}) ran out of time {times}")
        if waiting is not None and overdue:
            line = next(x for x in lines if x.seat == waiting)
            who = "a bot" if line.member is None else line.member.display_name
            warnings.append(f"the game has waited on {who} (seat {waiting}) past the time for a decision")
        if waiting is not None and limit is None:
            warnings.append("the game has no time limit: it waits on each player for as long as it takes")
        return SeatsAnswer(
            league_id=league_id,
            game_id=game_id,
            status=session.status.value,
            decision_timeout_seconds=limit,
            seats=lines,
            waiting_on=waiting,
            waiting_since=since,
            due_at=due,
            overdue=overdue,
            warnings=warnings,
            replacements=[
                {
                    "seat": r.player,
                    "replaced": r.replaced,
                    "member_id": r.member_id,
                    "name": r.name,
                    "turn": r.turn,
                }
                for _, r in session.replacements
            ],
        )

    async def replace_seat(
        self,
        caller: Principal,
        league_id: str,
        game_id: str,
        seat: str,
        *,
        member_id: str | None,
        bot: bool,
        reason: str = "",
        command_id: str | None = None,
    ) -> Done[SeatReplacedAnswer]:
        """Give ``seat`` of one of the league's ongoing online games to a member of its club or
        to a bot (a referee, an organiser or an admin of the club, as of now): ``SeatReplaced`` in
        the game's stream (docs/game-service.md, "Replacing a seat")."""
        state = await self._organised(caller, league_id, *VOIDING)
        if (member_id is None) == (not bot):
            raise InvalidCommand(
                "`member_id`: name the member who takes the seat over, or send `bot: true` for a bot "
                "(one of the two)"
            )
        await self._league_game(state, game_id)
        substitute = None
        if member_id is not None:
            if not await is_member(self._pool, state.club_id, member_id):
                raise InvalidCommand(f"`member_id`: {member_id!r} is not a member of club {state.club_id!r}")
            name = (await self._names(state, [member_id]))[member_id]
            substitute = Member(member_id=member_id, name=name)
        outcome = await self._gateway.replace_seat(
            GameCaller.of_account(caller),
            game_id,
            seat,
            substitute,
            reason=reason,
            command_id=command_id_or_new(command_id),
        )
        replaced = outcome.events[0]
        assert isinstance(replaced, SeatReplaced)
        held = replaced.replaced or None  # "": a bot held it
        names = await self._names(state, [held] if held else [])
        answer = SeatReplacedAnswer(
            league_id=league_id,
            game_id=game_id,
            seat=replaced.player,
            replaced=None if held is None else _person(held, names),
            substitute=None
            if substitute is None
            else Person(member_id=substitute.member_id, display_name=substitute.name),
            bot=substitute is None,
            turn=replaced.turn,
            version=outcome.version,
        )
        return Done(answer, not outcome.duplicate)

    async def _league_game(self, state: LeagueState, game_id: str) -> GameSession:
        """One of the league's scheduled games, as the game server holds it (404 otherwise: a
        game of another league, or one not created yet)."""
        if game_id not in state.games:
            raise UnknownEntity("game", game_id)
        try:
            return await self._gateway.service.load(game_id)
        except GameNotFound:
            raise UnknownEntity("game", game_id) from None

    async def close_season(
        self, caller: Principal, league_id: str, season_id: str, *, command_id: str | None = None
    ) -> Done[SeasonClosedAnswer]:
        await self._organised(caller, league_id)
        command = CloseSeason(league_id=league_id, season_id=season_id)
        result = await self._run(command, command_id_or_new(command_id), caller)
        closed = _only(result, SeasonClosed, command_id)
        return Done(SeasonClosedAnswer(league_id=league_id, season_id=closed.season_id), not result.duplicate)

    async def void(
        self,
        caller: Principal,
        league_id: str,
        game_id: str,
        *,
        reason: str,
        command_id: str | None = None,
    ) -> Done[VoidAnswer]:
        """Void one of the league's games (a referee, an organiser or an admin of its club)."""
        await self._organised(caller, league_id, *VOIDING)
        command = VoidGame(league_id=league_id, game_id=game_id, reason=reason, voided_by=caller.account_id)
        result = await self._run(command, command_id_or_new(command_id), caller)
        voided = _only(result, GameVoided, command_id)
        answer = VoidAnswer(league_id=league_id, game_id=game_id, reason=voided.reason)
        return Done(answer, not result.duplicate)

    # -- helpers ----------------------------------------------------------------------------

    async def _organised(self, caller: Principal, league_id: str, *roles: Role) -> LeagueState:
        """The league, once the caller is known to hold one of ``roles`` (default: organiser
        or admin) in its club."""
        state = await self._league.load_league(league_id)
        if not state.exists:
            raise UnknownEntity("league", league_id)
        require(caller, state.club_id, *(roles or ORGANISING))
        return state

    async def _run(
        self, command: LeagueAggregateCommand, command_id: str, caller: Principal, asked: object | None = None
    ) -> CommandResult:
        """Record ``command`` as the caller's (``CommandIdReused`` for a spent command id: see
        ``LeagueService.execute``, which also says what ``asked`` is)."""
        return await self._league.execute(command, command_id=command_id, actor=_actor(caller), asked=asked)

    async def _applied(
        self, command: LeagueAggregateCommand, command_id: str, caller: Principal, asked: object | None = None
    ) -> bool:
        """This very command of this caller's was applied under ``command_id`` (a retry, whose
        checks and side writes were done the first time); ``CommandIdReused`` for an id spent on
        another command or by another caller, before anything is written."""
        return await self._league.applied(command, command_id=command_id, actor=_actor(caller), asked=asked)

    async def _mirror_club(self, club_id: str) -> None:
        name = await self._pool.fetchval("SELECT name FROM clubs WHERE club_id = $1", club_id)
        if name is None:
            raise ClubNotFound(club_id)
        # mirrored before, under another command id (or under this one with an older name)
        with contextlib.suppress(AlreadyExists, CommandIdReused):
            await self._league.execute(
                FoundClub(club_id=club_id, name=name), command_id=f"mirror/club/{club_id}", actor="clubs"
            )

    async def _mirror_member(self, club_id: str, member_id: str, name: str) -> None:
        with contextlib.suppress(AlreadyExists, CommandIdReused):  # as _mirror_club
            await self._league.execute(
                RegisterPlayer(club_id=club_id, member_id=member_id, name=name),
                command_id=f"mirror/member/{club_id}/{member_id}",
                actor="clubs",
            )

    async def _names(self, state: LeagueState, member_ids: Iterable[str]) -> dict[str, str]:
        """Display names; a member without an account (old data) by the league club's name."""
        wanted = set(member_ids)
        book = await name_book(self._pool, wanted)  # the one resolver every view uses
        missing = wanted - book.accounts.keys()
        registered = (await self._league.load_club(state.club_id)).members if missing else {}
        return {m: book.name(m, state.club_id, registered.get(m)) for m in wanted}


def _actor(caller: Principal) -> str:
    return f"account:{caller.account_id}"


def _person(member_id: str, names: dict[str, str]) -> Person:
    return Person(member_id=member_id, display_name=names.get(member_id, member_id))


E = TypeVar("E", bound=LeagueEvent)


def _only(result: CommandResult, kind: type[E], command_id: str | None = None) -> E:
    """The command's one ``kind`` event; a retry under a command id that another command of
    the league spent (``command_id``) is refused naming it, not answered with that command's
    events."""
    for event in result.events:
        if isinstance(event, kind):
            return event
    if result.duplicate and command_id is not None:
        raise InvalidTransition(
            f"command id {command_id!r} was used in {result.stream} for another command, not a "
            f"{kind.__name__}; send this one under a new command id"
        )
    raise AssertionError(f"{result.stream}: the command recorded no {kind.__name__}")
