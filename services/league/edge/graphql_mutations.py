"""League management as GraphQL mutations: one per REST route of ``http.py``, the same bodies
and the same refusals.

Each input is REST's body plus the ids REST takes from its path. It is checked by decoding it
into REST's very request Struct (the same bounds, unknown values refused naming the field), then
one ``LeagueOrganiser`` call with the signed-in caller (the ``Authorization`` header's session or
API token). A refusal is a GraphQL error carrying REST's problem details. ``new`` is false when
the command id was applied before (REST's 200 instead of 201).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, TypeVar

import msgspec
import strawberry
from strawberry.types import Info

from event_store import PostgresEventStore
from services.accounts.errors import SessionRefused
from services.accounts.sessions import MISSING
from services.clubs.roles import Principal
from services.game.edge.bounds import GameId, Identifier, InvalidArgument, Round, Table, bounded, explain
from services.game.edge.graphql_mutations import CreatedGame, OptionsInput, RulesetInput
from services.game.edge.graphql_types import Game
from services.league.edge.http import CloseRequest as CloseBody
from services.league.edge.http import (
    EnrolRequest,
    FoundLeagueRequest,
    OpenSeasonRequest,
    OpenTournamentRequest,
    ReplaceSeatRequest,
    ResultSheetRequest,
    ScheduleRequest,
    SeatId,
    SeatRoundRequest,
    StartGameRequest,
    VisibilityRequest,
    VoidRequest,
)
from services.league.edge.http import ForfeitRequest as ForfeitBody
from services.league.organise import LeagueOrganiser
from services.league.organise import Person as AnswerPerson
from services.league.service import LeagueService

R = TypeVar("R")
VISIBILITY = (
    "Who may read the league's standings, rounds and tables: `public` (anyone, signed in or not) or "
    "`members` (its club's members only)."
)


# -- inputs -----------------------------------------------------------------------------------


@strawberry.input(description="A points scheme; fields left out as the default (3 for a win, 1 for a bye).")
class LeaguePointsInput:
    win: int | None = None
    loss: int | None = None
    survivor_bonus: int | None = None
    renegade_bonus: int | None = None
    bye: int | None = None


@strawberry.input(description="The table sizes a seating may use, and the one it aims for.")
class LeagueSeatingInput:
    allowed_sizes: list[int] | None = None
    preferred_size: int | None = None


@strawberry.input(description="`POST /clubs/{clubId}/leagues`.")
class FoundLeagueInput:
    club_id: str
    name: str
    league_id: str | None = None
    points: LeaguePointsInput | None = None
    seating: LeagueSeatingInput | None = None
    game_type: str | None = strawberry.field(
        default=None, description="`dice` (the default) or `cards`: what every game of the league is."
    )
    visibility: str | None = strawberry.field(default=None, description=VISIBILITY + " Default `members`.")
    decision_seconds: int | None = strawberry.field(
        default=None, description="Each decision's time in the league's online games; default 86400 (24 h)."
    )
    command_id: str | None = None


@strawberry.input(description="`POST /leagues/{leagueId}/visibility`.")
class SetLeagueVisibilityInput:
    league_id: str
    visibility: str = strawberry.field(description=VISIBILITY)
    command_id: str | None = None


@strawberry.input(description="`POST /leagues/{leagueId}/seasons`.")
class OpenSeasonInput:
    league_id: str
    name: str
    season_id: str | None = None
    points: LeaguePointsInput | None = None
    command_id: str | None = None


@strawberry.input(description="`POST /leagues/{leagueId}/seasons/{seasonId}/entrants`: all or none.")
class EnrolPlayersInput:
    league_id: str
    season_id: str
    member_ids: list[str]
    command_id: str | None = None


@strawberry.input(description="`POST /leagues/{leagueId}/seasons/{seasonId}/tournaments`.")
class OpenTournamentInput:
    league_id: str
    season_id: str
    name: str
    tournament_id: str | None = None
    seating: LeagueSeatingInput | None = None
    command_id: str | None = None


@strawberry.input(description="`POST /leagues/{leagueId}/tournaments/{tournamentId}/rounds`.")
class SeatRoundInput:
    league_id: str
    tournament_id: str
    round: int | None = None
    seed: str | None = None
    tables: list[list[str]] | None = strawberry.field(
        default=None, description="Your own tables (member ids); the Sheriff still by the rotation."
    )
    command_id: str | None = None


@strawberry.input(description="`POST …/rounds/{round}/tables/{table}/game`.")
class ScheduleGameInput:
    league_id: str
    tournament_id: str
    round: int
    table: int
    mode: str = strawberry.field(description="`online` (created now) or `table` (with its scorekeeper).")
    game_id: str | None = None
    scorekeeper: str | None = None
    ruleset: RulesetInput | None = None
    options: OptionsInput | None = None
    starts_at: str | None = strawberry.field(
        default=None, description="When the table plays: ISO 8601 with its UTC offset."
    )
    command_id: str | None = None


@strawberry.input(description="`POST …/rounds/{round}/forfeits`.")
class RecordForfeitInput:
    league_id: str
    tournament_id: str
    round: int
    table: int
    member_id: str
    kind: str | None = strawberry.field(default=None, description="`forfeit` (the default) or `no-show`.")
    reason: str | None = None
    command_id: str | None = None


@strawberry.input(description="`POST …/rounds/{round}/close`.")
class CloseRoundInput:
    league_id: str
    tournament_id: str
    round: int
    command_id: str | None = None


@strawberry.input(description="`POST /leagues/{leagueId}/seasons/{seasonId}/close`.")
class CloseSeasonInput:
    league_id: str
    season_id: str
    command_id: str | None = None


@strawberry.input(description="A seat of a result sheet: who sat there, the role and the character.")
class ResultSheetSeatInput:
    member_id: str
    role: str = strawberry.field(description="`sheriff`, `deputy`, `outlaw` or `renegade`.")
    character: str = strawberry.field(description="One of the 16, as `bart_cassidy`, `willy_the_kid`…")


@strawberry.input(description="An elimination of a result sheet, in the order they happened.")
class ResultSheetEliminationInput:
    member_id: str
    turn: int
    by: str | None = strawberry.field(
        default=None, description="Whose card eliminated them; left out: nobody (Dynamite, his own Duel)."
    )


@strawberry.input(description="`POST …/rounds/{round}/tables/{table}/result-sheet`.")
class RecordResultSheetInput:
    league_id: str
    tournament_id: str
    round: int
    table: int
    seats: list[ResultSheetSeatInput]
    winning_side: str = strawberry.field(description="`law`, `outlaws` or `renegade`.")
    winners: list[str]
    eliminations: list[ResultSheetEliminationInput] | None = None
    command_id: str | None = None


@strawberry.input(description="A seat as dealt at the physical table.")
class StartTableSeatInput:
    member_id: str = strawberry.field(description="One of the table's members.")
    role: str
    character: str
    special: str | None = strawberry.field(default=None, description="With OS3: the special role card.")


@strawberry.input(description="`POST …/rounds/{round}/tables/{table}/game/start`.")
class StartTableGameInput:
    league_id: str
    tournament_id: str
    round: int
    table: int
    seats: list[StartTableSeatInput] | None = strawberry.field(
        default=None, description="Clockwise, as dealt at the table; null: the server deals them."
    )
    command_id: str | None = None


@strawberry.input(description="`POST /leagues/{leagueId}/games/{gameId}/seats/{seat}/replace`.")
class ReplaceSeatInput:
    league_id: str
    game_id: str
    seat: str = strawberry.field(description="The seat: `p1` to `p8`.")
    member_id: str | None = strawberry.field(default=None, description="The member who takes it over.")
    bot: bool | None = strawberry.field(default=None, description="True: a bot takes it over.")
    reason: str | None = None
    command_id: str | None = None


@strawberry.input(description="`POST /leagues/{leagueId}/games/{gameId}/void`.")
class VoidGameInput:
    league_id: str
    game_id: str
    reason: str
    command_id: str | None = None


# -- answers ----------------------------------------------------------------------------------


@strawberry.type(description="A member, by name (the id for links).")
class ManagedMember:
    member_id: strawberry.ID
    display_name: str

    @classmethod
    def of(cls, person: AnswerPerson) -> ManagedMember:
        return cls(member_id=strawberry.ID(person.member_id), display_name=person.display_name)


def _maybe(person: AnswerPerson | None) -> ManagedMember | None:
    return None if person is None else ManagedMember.of(person)


NEW = "False when this command id was applied before (the first answer, nothing changed)."


@strawberry.type(description="A founded league.")
class ManagedLeague:
    league_id: strawberry.ID
    club_id: strawberry.ID
    name: str
    game_type: str = strawberry.field(description="`dice` or `cards`: what every game of the league is.")
    visibility: str = strawberry.field(description=VISIBILITY)
    decision_seconds: int = strawberry.field(description="Each decision's time in the league's online games.")
    new: bool = strawberry.field(description=NEW)


@strawberry.type(description="Who may read a league now.")
class ManagedVisibility:
    league_id: strawberry.ID
    visibility: str = strawberry.field(description=VISIBILITY)
    new: bool = strawberry.field(description=NEW)


@strawberry.type(description="An opened season.")
class ManagedSeason:
    league_id: strawberry.ID
    season_id: strawberry.ID
    name: str
    new: bool = strawberry.field(description=NEW)


@strawberry.type(description="Members enrolled in a season.")
class ManagedEnrolment:
    league_id: strawberry.ID
    season_id: strawberry.ID
    enrolled: list[ManagedMember]
    new: bool = strawberry.field(description=NEW)


@strawberry.type(description="An opened tournament.")
class ManagedTournament:
    league_id: strawberry.ID
    season_id: strawberry.ID
    tournament_id: strawberry.ID
    name: str
    new: bool = strawberry.field(description=NEW)


@strawberry.type(description="A seated table: its members in seating order and the rotation's Sheriff.")
class ManagedTable:
    table: int
    members: list[ManagedMember]
    sheriff: ManagedMember | None


@strawberry.type(description="A seated round.")
class ManagedRound:
    league_id: strawberry.ID
    season_id: strawberry.ID
    tournament_id: strawberry.ID
    round: int
    tables: list[ManagedTable]
    byes: list[ManagedMember]
    new: bool = strawberry.field(description=NEW)


@strawberry.type(description="A scheduled game of a seated table.")
class ManagedGame:
    league_id: strawberry.ID
    tournament_id: strawberry.ID
    round: int
    table: int
    game_id: strawberry.ID
    mode: str
    members: list[ManagedMember]
    sheriff: ManagedMember | None
    scorekeeper: ManagedMember | None
    game_created: bool = strawberry.field(description="An online game exists now.")
    starts_at: str | None = strawberry.field(default=None, description="When the table plays (ISO 8601).")
    ruleset: str | None = strawberry.field(
        default=None, description="The scheduled rules (`dice OS1`); null: the league's base game."
    )
    decision_timeout_seconds: int | None = strawberry.field(default=None, description="The decision timer.")
    without_login: list[ManagedMember] = strawberry.field(
        default_factory=list,
        description="The table's members who cannot sign in yet: send each a login link.",
    )
    new: bool = strawberry.field(description=NEW)


@strawberry.type(description="A recorded forfeit or no-show.")
class ManagedForfeit:
    league_id: strawberry.ID
    tournament_id: strawberry.ID
    round: int
    table: int
    member: ManagedMember
    kind: str
    reason: str
    new: bool = strawberry.field(description=NEW)


@strawberry.type(description="A closed round.")
class ManagedRoundClosed:
    league_id: strawberry.ID
    tournament_id: strawberry.ID
    round: int
    new: bool = strawberry.field(description=NEW)


@strawberry.type(description="A closed season.")
class ManagedSeasonClosed:
    league_id: strawberry.ID
    season_id: strawberry.ID
    new: bool = strawberry.field(description=NEW)


@strawberry.type(description="A seat that changed hands: its substitute (null: a bot) plays it from now on.")
class ManagedSeatReplaced:
    league_id: strawberry.ID
    game_id: strawberry.ID
    seat: str
    replaced: ManagedMember | None = strawberry.field(description="Who held the seat until now; null: a bot.")
    substitute: ManagedMember | None
    bot: bool
    turn: int
    new: bool = strawberry.field(description=NEW)


@strawberry.type(description="A voided game: it no longer counts for standings or ratings.")
class ManagedVoid:
    league_id: strawberry.ID
    game_id: strawberry.ID
    reason: str
    new: bool = strawberry.field(description=NEW)


@strawberry.type(description="A seat of a recorded result sheet.")
class ManagedSheetSeat:
    seat: str
    member: ManagedMember
    role: str
    character: str
    side: str
    alive: bool
    won: bool


@strawberry.type(description="An elimination of a recorded result sheet.")
class ManagedSheetElimination:
    member: ManagedMember
    by: ManagedMember | None = strawberry.field(description="None: nobody (Dynamite, his own Duel).")
    turn: int


@strawberry.type(
    description="A card game played on cardboard, known from its result sheet: it counts for "
    "standings and ratings, and there is no record to replay or audit."
)
class ManagedResultSheet:
    league_id: strawberry.ID
    tournament_id: strawberry.ID
    round: int
    table: int
    game_id: strawberry.ID
    game_type: str
    replayable: bool = strawberry.field(description="Always false: nothing to replay.")
    shown_as: str = strawberry.field(description="`result sheet — not replayable`.")
    winning_side: str
    seats: list[ManagedSheetSeat]
    eliminations: list[ManagedSheetElimination]
    new: bool = strawberry.field(description=NEW)


# -- plumbing ---------------------------------------------------------------------------------


def _request(given: Any, kind: type[R], *path: str) -> tuple[dict[str, Any], R]:
    """(the path ids, REST's body) from a GraphQL input; ``InvalidArgument`` naming the field."""
    data = _given(dataclasses.asdict(given))
    ids = {name: data.pop(name) for name in path if name in data}
    try:
        return ids, msgspec.convert(data, kind, strict=True)
    except msgspec.ValidationError as error:
        message = str(error)
        at = _AT.search(message)
        field = "input" if at is None else "input" + _camel(at.group(1))
        raise InvalidArgument(field, explain(_AT.sub("", message))) from None


_AT = re.compile(r" - at `\$([^`]*)`$")


def _given(data: Any) -> Any:
    """The fields given: a null stands for a field left out, as REST's default."""
    if isinstance(data, dict):
        return {k: _given(v) for k, v in data.items() if v is not None}
    if isinstance(data, list):
        return [_given(v) for v in data]
    return data


def _camel(path: str) -> str:
    return re.sub(r"_([a-z])", lambda m: m.group(1).upper(), path)


def _id(field: str, value: str) -> str:
    return bounded(_camel(f"input.{field}"), value, Identifier)


def _organiser(info: Info) -> LeagueOrganiser:
    pool = info.context["pool"]
    league = LeagueService(PostgresEventStore(pool))
    return LeagueOrganiser(league, info.context["clubs"], info.context["gateway"], pool)


async def _caller(info: Info) -> Principal:
    request = info.context.get("request")
    if request is None:
        raise SessionRefused(MISSING)
    principal: Principal = await info.context["clubs"].principal(request.headers.get("authorization"))
    return principal


@strawberry.type
class LeagueMutation:
    @strawberry.mutation(description="Found a league of a club (its admin or organiser).")
    async def found_league(self, info: Info, input: FoundLeagueInput) -> ManagedLeague:
        ids, body = _request(input, FoundLeagueRequest, "club_id")
        done = await _organiser(info).found_league(
            await _caller(info),
            _id("club_id", ids["club_id"]),
            name=body.name,
            league_id=body.league_id,
            points=None if body.points is None else body.points.to_scheme(),
            seating=None if body.seating is None else body.seating.to_policy(),
            game_type=body.game_type,
            visibility=body.visibility,
            decision_seconds=body.decision_seconds,
            command_id=body.command_id,
        )
        a = done.answer
        return ManagedLeague(
            league_id=strawberry.ID(a.league_id),
            club_id=strawberry.ID(a.club_id),
            name=a.name,
            game_type=a.game_type,
            visibility=a.visibility,
            decision_seconds=a.decision_seconds,
            new=done.new,
        )

    @strawberry.mutation(
        description="Make a league public or members-only (its club's admin or organiser), as "
        "`POST /leagues/{leagueId}/visibility`."
    )
    async def set_league_visibility(self, info: Info, input: SetLeagueVisibilityInput) -> ManagedVisibility:
        ids, body = _request(input, VisibilityRequest, "league_id")
        done = await _organiser(info).set_visibility(
            await _caller(info),
            _id("league_id", ids["league_id"]),
            visibility=body.visibility,
            command_id=body.command_id,
        )
        a = done.answer
        return ManagedVisibility(league_id=strawberry.ID(a.league_id), visibility=a.visibility, new=done.new)

    @strawberry.mutation(description="Open a season of a league.")
    async def open_season(self, info: Info, input: OpenSeasonInput) -> ManagedSeason:
        ids, body = _request(input, OpenSeasonRequest, "league_id")
        done = await _organiser(info).open_season(
            await _caller(info),
            _id("league_id", ids["league_id"]),
            name=body.name,
            season_id=body.season_id,
            points=None if body.points is None else body.points.to_scheme(),
            command_id=body.command_id,
        )
        a = done.answer
        return ManagedSeason(
            league_id=strawberry.ID(a.league_id),
            season_id=strawberry.ID(a.season_id),
            name=a.name,
            new=done.new,
        )

    @strawberry.mutation(description="Enrol club members in a season: all of them, or (refused) none.")
    async def enrol_players(self, info: Info, input: EnrolPlayersInput) -> ManagedEnrolment:
        ids, body = _request(input, EnrolRequest, "league_id", "season_id")
        done = await _organiser(info).enrol(
            await _caller(info),
            _id("league_id", ids["league_id"]),
            _id("season_id", ids["season_id"]),
            body.member_ids,
            command_id=body.command_id,
        )
        a = done.answer
        return ManagedEnrolment(
            league_id=strawberry.ID(a.league_id),
            season_id=strawberry.ID(a.season_id),
            enrolled=[ManagedMember.of(p) for p in a.enrolled],
            new=done.new,
        )

    @strawberry.mutation(description="Open a tournament in a season.")
    async def open_tournament(self, info: Info, input: OpenTournamentInput) -> ManagedTournament:
        ids, body = _request(input, OpenTournamentRequest, "league_id", "season_id")
        done = await _organiser(info).open_tournament(
            await _caller(info),
            _id("league_id", ids["league_id"]),
            _id("season_id", ids["season_id"]),
            name=body.name,
            tournament_id=body.tournament_id,
            seating=None if body.seating is None else body.seating.to_policy(),
            command_id=body.command_id,
        )
        a = done.answer
        return ManagedTournament(
            league_id=strawberry.ID(a.league_id),
            season_id=strawberry.ID(a.season_id),
            tournament_id=strawberry.ID(a.tournament_id),
            name=a.name,
            new=done.new,
        )

    @strawberry.mutation(description="Seat the next round: Swiss on the standings, the Sheriff by rotation.")
    async def seat_round(self, info: Info, input: SeatRoundInput) -> ManagedRound:
        ids, body = _request(input, SeatRoundRequest, "league_id", "tournament_id")
        done = await _organiser(info).seat_round(
            await _caller(info),
            _id("league_id", ids["league_id"]),
            _id("tournament_id", ids["tournament_id"]),
            round_number=body.round,
            seed=body.seed,
            tables=None if body.tables is None else tuple(tuple(t) for t in body.tables),
            command_id=body.command_id,
        )
        a = done.answer
        return ManagedRound(
            league_id=strawberry.ID(a.league_id),
            season_id=strawberry.ID(a.season_id),
            tournament_id=strawberry.ID(a.tournament_id),
            round=a.round,
            tables=[
                ManagedTable(
                    table=t.table, members=[ManagedMember.of(m) for m in t.members], sheriff=_maybe(t.sheriff)
                )
                for t in a.tables
            ],
            byes=[ManagedMember.of(p) for p in a.byes],
            new=done.new,
        )

    @strawberry.mutation(
        description="Schedule a seated table's game: online (created now, without anybody's player token) "
        "or at a table (its scorekeeper granted for that game alone)."
    )
    async def schedule_game(self, info: Info, input: ScheduleGameInput) -> ManagedGame:
        ids, body = _request(input, ScheduleRequest, "league_id", "tournament_id", "round", "table")
        done = await _organiser(info).schedule(
            await _caller(info),
            _id("league_id", ids["league_id"]),
            _id("tournament_id", ids["tournament_id"]),
            bounded("input.round", ids["round"], Round),
            bounded("input.table", ids["table"], Table),
            mode=body.mode,
            game_id=body.game_id,
            scorekeeper=body.scorekeeper,
            setup=body.setup(),
            starts_at=body.starts_at,
            command_id=body.command_id,
        )
        a = done.answer
        return ManagedGame(
            league_id=strawberry.ID(a.league_id),
            tournament_id=strawberry.ID(a.tournament_id),
            round=a.round,
            table=a.table,
            game_id=strawberry.ID(a.game_id),
            mode=a.mode,
            members=[ManagedMember.of(m) for m in a.members],
            sheriff=_maybe(a.sheriff),
            scorekeeper=_maybe(a.scorekeeper),
            game_created=a.game_created,
            starts_at=None if a.starts_at is None else a.starts_at.isoformat(),
            ruleset=a.ruleset,
            decision_timeout_seconds=a.decision_timeout_seconds,
            without_login=[ManagedMember.of(m) for m in a.without_login],
            new=done.new,
        )

    @strawberry.mutation(description="Record a seated member's forfeit or no-show.")
    async def record_forfeit(self, info: Info, input: RecordForfeitInput) -> ManagedForfeit:
        ids, body = _request(input, ForfeitBody, "league_id", "tournament_id", "round")
        done = await _organiser(info).forfeit(
            await _caller(info),
            _id("league_id", ids["league_id"]),
            _id("tournament_id", ids["tournament_id"]),
            bounded("input.round", ids["round"], Round),
            table=body.table,
            member_id=body.member_id,
            kind=body.kind,
            reason=body.reason,
            command_id=body.command_id,
        )
        a = done.answer
        return ManagedForfeit(
            league_id=strawberry.ID(a.league_id),
            tournament_id=strawberry.ID(a.tournament_id),
            round=a.round,
            table=a.table,
            member=ManagedMember.of(a.member),
            kind=a.kind,
            reason=a.reason,
            new=done.new,
        )

    @strawberry.mutation(description="Close a round: nothing more is scheduled or forfeited in it.")
    async def close_round(self, info: Info, input: CloseRoundInput) -> ManagedRoundClosed:
        ids, body = _request(input, CloseBody, "league_id", "tournament_id", "round")
        done = await _organiser(info).close_round(
            await _caller(info),
            _id("league_id", ids["league_id"]),
            _id("tournament_id", ids["tournament_id"]),
            bounded("input.round", ids["round"], Round),
            command_id=body.command_id,
        )
        a = done.answer
        return ManagedRoundClosed(
            league_id=strawberry.ID(a.league_id),
            tournament_id=strawberry.ID(a.tournament_id),
            round=a.round,
            new=done.new,
        )

    @strawberry.mutation(description="Close a season.")
    async def close_season(self, info: Info, input: CloseSeasonInput) -> ManagedSeasonClosed:
        ids, body = _request(input, CloseBody, "league_id", "season_id")
        done = await _organiser(info).close_season(
            await _caller(info),
            _id("league_id", ids["league_id"]),
            _id("season_id", ids["season_id"]),
            command_id=body.command_id,
        )
        a = done.answer
        return ManagedSeasonClosed(
            league_id=strawberry.ID(a.league_id), season_id=strawberry.ID(a.season_id), new=done.new
        )

    @strawberry.mutation(
        description="Start a scheduled table game as its schedule describes it (its scorekeeper, or a "
        "referee, organiser or admin of the club): the seats as dealt at the table, or dealt by the server."
    )
    async def start_table_game(self, info: Info, input: StartTableGameInput) -> CreatedGame:
        ids, body = _request(input, StartGameRequest, "league_id", "tournament_id", "round", "table")
        created = await _organiser(info).start_table_game(
            await _caller(info),
            _id("league_id", ids["league_id"]),
            _id("tournament_id", ids["tournament_id"]),
            bounded("input.round", ids["round"], Round),
            bounded("input.table", ids["table"], Table),
            seats=body.start_seats(),
            command_id=body.command_id,
        )
        game = Game.from_view(created.state)
        return CreatedGame(game_id=strawberry.ID(created.game_id), version=created.version, game=game)

    @strawberry.mutation(
        description="Record the result sheet of a card game played entirely on cardboard (its scorekeeper, "
        "or a referee, organiser or admin of the club); refused naming the rule an inconsistent sheet breaks."
    )
    async def record_result_sheet(self, info: Info, input: RecordResultSheetInput) -> ManagedResultSheet:
        ids, body = _request(input, ResultSheetRequest, "league_id", "tournament_id", "round", "table")
        done = await _organiser(info).record_result_sheet(
            await _caller(info),
            _id("league_id", ids["league_id"]),
            _id("tournament_id", ids["tournament_id"]),
            bounded("input.round", ids["round"], Round),
            bounded("input.table", ids["table"], Table),
            sheet=body.to_sheet(),
            command_id=body.command_id,
        )
        a = done.answer
        return ManagedResultSheet(
            league_id=strawberry.ID(a.league_id),
            tournament_id=strawberry.ID(a.tournament_id),
            round=a.round,
            table=a.table,
            game_id=strawberry.ID(a.game_id),
            game_type=a.game_type,
            replayable=a.replayable,
            shown_as=a.shown_as,
            winning_side=a.winning_side,
            seats=[
                ManagedSheetSeat(
                    seat=s.seat,
                    member=ManagedMember.of(s.member),
                    role=s.role,
                    character=s.character,
                    side=s.side,
                    alive=s.alive,
                    won=s.won,
                )
                for s in a.seats
            ],
            eliminations=[
                ManagedSheetElimination(member=ManagedMember.of(e.member), by=_maybe(e.by), turn=e.turn)
                for e in a.eliminations
            ],
            new=done.new,
        )

    @strawberry.mutation(
        description="Give a seat of one of the league's ongoing online games to a member of its club or "
        "to a bot (a referee, organiser or admin), as `POST …/games/{gameId}/seats/{seat}/replace`."
    )
    async def replace_seat(self, info: Info, input: ReplaceSeatInput) -> ManagedSeatReplaced:
        ids, body = _request(input, ReplaceSeatRequest, "league_id", "game_id", "seat")
        done = await _organiser(info).replace_seat(
            await _caller(info),
            _id("league_id", ids["league_id"]),
            bounded("input.gameId", ids["game_id"], GameId),
            bounded("input.seat", ids["seat"], SeatId),
            member_id=body.member_id,
            bot=body.bot,
            reason=body.reason,
            command_id=body.command_id,
        )
        a = done.answer
        return ManagedSeatReplaced(
            league_id=strawberry.ID(a.league_id),
            game_id=strawberry.ID(a.game_id),
            seat=a.seat,
            replaced=_maybe(a.replaced),
            substitute=_maybe(a.substitute),
            bot=a.bot,
            turn=a.turn,
            new=done.new,
        )

    @strawberry.mutation(
        description="Void one of the league's games, with a reason (a referee, organiser or admin)."
    )
    async def void_game(self, info: Info, input: VoidGameInput) -> ManagedVoid:
        ids, body = _request(input, VoidRequest, "league_id", "game_id")
        done = await _organiser(info).void(
            await _caller(info),
            _id("league_id", ids["league_id"]),
            bounded("input.gameId", ids["game_id"], GameId),
            reason=body.reason,
            command_id=body.command_id,
        )
        a = done.answer
        return ManagedVoid(
            league_id=strawberry.ID(a.league_id),
            game_id=strawberry.ID(a.game_id),
            reason=a.reason,
            new=done.new,
        )
