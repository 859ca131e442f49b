"""UA5 legacy series over GraphQL: REST's ``/series`` routes on the other channel.

``series(id)`` and ``clubSeries(clubId, first, after)`` read what ``GET /series/{id}`` and
``GET /series?club=`` read (public, as they are: a series record holds no hidden role and no
seed before its close), plus each game's seats as everyone sees them once it is dealt (its
Sheriff and the characters, never another role), so a client draws the Sheriff chain without
reading every game. ``openSeries``, ``decideInSeries`` and ``closeSeries`` decode their input
into REST's very request and run the REST edge's own functions (``series_http.py``), so both
channels authorise alike: the club's organiser or admin opens and closes, a decision is the
seated player's or a table's scorekeeper's, and a refusal carries REST's problem and stores
nothing.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
from typing import Annotated, Any

import strawberry
from strawberry.types import Info

from services.game.application.series import SeriesService, SeriesState, SeriesView
from services.game.edge.bounds import Identifier, InvalidArgument, bounded
from services.game.edge.graphql_mutations import MemberInput, SeatInput, rest_request
from services.game.edge.graphql_types import _gateway, caller
from services.game.edge.series_http import (
    CloseSeriesRequest,
    DecisionRequest,
    OpenSeriesRequest,
    close_as,
    decide_as,
    open_as,
    series_service,
)
from services.game.rules.dice import events as ev
from services.game.rules.dice.undead.legacy import NextSheriff, SheriffDrawn
from services.game.rules.dice.vocabulary import Role

MAX_SERIES_PAGE = 50


@strawberry.type(description="A player of a series, by the name the series was opened with.")
class SeriesMember:
    member_id: strawberry.ID
    display_name: str


@strawberry.type(description="A seat of a series game as everyone sees it: the Sheriff, never another role.")
class SeriesSeat:
    seat: str = strawberry.field(description="`p1`…: a member keeps their seat in every game of a series.")
    member: SeriesMember | None
    character: str
    sheriff: bool
    legacy_bonus: int = strawberry.field(description="+1: the Sheriff a surviving Sheriff designated.")


@strawberry.type(description="One game of a series, in order.")
class SeriesGame:
    number: int = strawberry.field(description="1 for the first game.")
    game_id: strawberry.ID
    previous_game_id: str | None
    status: str = strawberry.field(description="`ongoing` or `ended` (as the game's own status).")
    winners: list[SeriesMember] = strawberry.field(description="Once the game has ended.")
    sheriff: SeriesMember | None = strawberry.field(description="Who was Sheriff (public in every game).")
    sheriff_by: str | None = strawberry.field(
        description="How they became Sheriff: `dealt` (game 1), `killer` (they eliminated the Sheriff), "
        "`designated` (by the surviving Sheriff; himself or another) or `drawn` (from the series seed, "
        "or at the table)."
    )
    seats: list[SeriesSeat]


@strawberry.type(description="A decision or a draw recorded between two games.")
class SeriesDecision:
    number: int = strawberry.field(description="The game it prepares.")
    kind: str = strawberry.field(
        description="`next_sheriff`, `keep_character`, `choose_character` (decisions); `sheriff`, "
        "`character` (draws)."
    )
    entry: str = strawberry.field(
        description="Its compact form: `p2 keep_character no`, `p4 draws kit_carlson`."
    )
    by: str = strawberry.field(description="The member who decided or entered it, or `series-seed`.")
    by_name: str | None = strawberry.field(
        description="That player's name; null for a draw from the seed or a scorekeeper who does not play."
    )


@strawberry.type(description="What a series waits for before its next game, and of whom.")
class SeriesQuestion:
    number: int = strawberry.field(description="The game it prepares.")
    ask: str = strawberry.field(
        description="`next_sheriff`, `keep_character`, `choose_character`, or a draw."
    )
    seat: str
    member: SeriesMember | None = strawberry.field(description="Who must answer (a decision is theirs).")
    draw: bool = strawberry.field(
        description="A draw: the table's scorekeeper enters it (online: never asked)."
    )
    among: list[str] = strawberry.field(
        description="The options: seats (`next_sheriff`), `no`/`yes` (`keep_character`), characters."
    )


@strawberry.type(description="A member's games and wins in the series so far.")
class SeriesStanding:
    member: SeriesMember
    games: int
    wins: int


@strawberry.type(
    description="A UA5 legacy series: a club's run of games with the same players (docs/series.md)."
)
class Series:
    id: strawberry.ID
    club_id: str
    mode: str = strawberry.field(description="`online` or `table`.")
    ruleset: str = strawberry.field(description="The compact form, e.g. `dice UA4 UA5`.")
    status: str = strawberry.field(description="`open` or `closed`.")
    members: list[SeriesMember]
    games: list[SeriesGame]
    decisions: list[SeriesDecision]
    standing: list[SeriesStanding]
    asked: SeriesQuestion | None = strawberry.field(
        description="The question before the next game; null while a game is played or once closed."
    )
    seed_commitment: str | None = strawberry.field(description="Online: sha256 of the series seed, in hex.")
    seed: str | None = strawberry.field(description="Online: the series seed, revealed when it closes.")


@strawberry.type(description="A page of a club's series, in the order they were opened.")
class SeriesPage:
    series: list[Series]
    end_cursor: str | None = strawberry.field(description="Pass it as `after` for the next page.")
    has_next_page: bool


async def series_of(service: SeriesService, state: SeriesState) -> Series:
    view = await service.view(state)
    names = {m.member_id: m.name for m in state.opened.members}

    def member(member_id: str | None) -> SeriesMember | None:
        if member_id is None:
            return None
        return SeriesMember(member_id=strawberry.ID(member_id), display_name=names.get(member_id, member_id))

    def known(member_id: str) -> SeriesMember:
        found = member(member_id)
        assert found is not None
        return found

    games = [await _game(service, state, row, member) for row in view.games]
    return Series(
        id=strawberry.ID(view.series_id),
        club_id=view.club_id,
        mode=view.mode,
        ruleset=view.ruleset,
        status=view.status,
        members=[known(m.member_id) for m in view.members],
        games=games,
        decisions=[
            SeriesDecision(
                number=d["number"],
                kind=d["kind"],
                entry=d["entry"],
                by=d["by"],
                by_name=names.get(d["by"]),
            )
            for d in view.decisions
        ],
        standing=[
            SeriesStanding(member=known(s["member_id"]), games=s["games"], wins=s["wins"])
            for s in view.standing
        ],
        asked=_question(view, member),
        seed_commitment=view.seed_commitment,
        seed=view.seed,
    )


async def _game(service: SeriesService, state: SeriesState, row: dict[str, Any], member: Any) -> SeriesGame:
    session = await service.games.load(row["game_id"])
    seats: list[SeriesSeat] = []
    sheriff: SeriesMember | None = None
    if session.game is not None and isinstance(started := session.game.events[0], ev.GameStarted):
        for s in started.seats:
            seat = SeriesSeat(
                seat=s.player,
                member=member(session.seat_members.get(s.player)),
                character=s.character.value,
                sheriff=s.role is Role.SHERIFF,
                legacy_bonus=s.legacy_bonus,
            )
            seats.append(seat)
            if seat.sheriff:
                sheriff = seat.member
    number: int = row["number"]
    entries = state.recorded(number)
    if number == 1:
        how = "dealt"
    elif any(isinstance(e, NextSheriff) for e in entries):
        how = "designated"
    elif any(isinstance(e, SheriffDrawn) for e in entries):
        how = "drawn"
    else:
        how = "killer"
    return SeriesGame(
        number=number,
        game_id=strawberry.ID(row["game_id"]),
        previous_game_id=row["previous_game_id"],
        status=row["status"],
        winners=[w for w in map(member, row.get("winners", [])) if w is not None],
        sheriff=sheriff,
        sheriff_by=how if sheriff is not None else None,
        seats=seats,
    )


def _question(view: SeriesView, member: Any) -> SeriesQuestion | None:
    q = view.asked
    if q is None:
        return None
    return SeriesQuestion(
        number=q["number"],
        ask=q["ask"],
        seat=q["seat"],
        member=member(q["member_id"]),
        draw=q["draw"],
        among=list(q["among"]),
    )


def _cursor(series_id: str) -> str:
    return base64.urlsafe_b64encode(f"series:{series_id}".encode()).decode()


def _after(cursor: str) -> str:
    try:
        decoded = base64.urlsafe_b64decode(cursor.encode()).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        decoded = ""
    if not decoded.startswith("series:"):
        raise InvalidArgument("after", "an `endCursor` of an earlier page")
    return decoded.removeprefix("series:")


# -- inputs -----------------------------------------------------------------------------------


@strawberry.input(description="`POST /series`: a club's organiser or admin opens a series and its game 1.")
class OpenSeriesInput:
    command_id: str = strawberry.field(description="Idempotency key: a retry answers with the same series.")
    series_id: str
    club_id: str
    mode: str = strawberry.field(description="`online` (the server deals) or `table` (give `seats`).")
    modules: list[str] = strawberry.field(description='UA5 among them, e.g. `["UA4", "UA5"]`.')
    members: list[MemberInput] | None = strawberry.field(default=None, description="Online: the players.")
    seats: list[SeatInput] | None = strawberry.field(
        default=None, description="Table: game 1's seats as dealt at the table, clockwise."
    )


@strawberry.input(
    description="`POST /series/{id}/decisions`: the seated player's decision (or, at a table, the "
    "scorekeeper's entry)."
)
class SeriesDecisionInput:
    series_id: str
    command_id: str
    kind: str = strawberry.field(
        description="`next_sheriff`, `keep_character`, `choose_character`; at a table also `sheriff`, "
        "`character`, `roles`."
    )
    seat: str = strawberry.field(
        description="The deciding seat; `sheriff`: the seat drawn; `roles`: the new Sheriff's."
    )
    sheriff: str | None = None
    keep: bool | None = None
    character: str | None = None
    roles: list[str] | None = None


@strawberry.input(description="`POST /series/{id}/close` (organiser or admin): online, the seed is revealed.")
class CloseSeriesInput:
    series_id: str
    command_id: str
    reason: str | None = None


def _series_id(given: dict[str, Any]) -> str:
    series_id: str = bounded("input.seriesId", given.pop("series_id"), Identifier)
    return series_id


@strawberry.type
class SeriesQuery:
    @strawberry.field(
        description="A series: its members, games (with their Sheriffs), decisions and question."
    )
    async def series(
        self, info: Info, series_id: Annotated[strawberry.ID, strawberry.argument(name="id")]
    ) -> Series:
        service = series_service(_gateway(info))
        return await series_of(service, await service.load(bounded("id", str(series_id), Identifier)))

    @strawberry.field(description="A club's series, in the order they were opened, `first` at a time.")
    async def club_series(
        self, info: Info, club_id: str, first: int = 20, after: str | None = None
    ) -> SeriesPage:
        club_id = bounded("clubId", club_id, Identifier)
        if not 1 <= first <= MAX_SERIES_PAGE:
            raise InvalidArgument("first", f"1 to {MAX_SERIES_PAGE}")
        service = series_service(_gateway(info))
        page = await service.list_page(club_id, limit=first, after=None if after is None else _after(after))
        return SeriesPage(
            series=[await series_of(service, s) for s in page.items],
            end_cursor=_cursor(page.items[-1].series_id) if page.items else None,
            has_next_page=page.next_offset is not None,
        )


@strawberry.type
class SeriesMutation:
    @strawberry.mutation(description="Open a UA5 series and its game 1, as `POST /series`.")
    async def open_series(self, info: Info, input: OpenSeriesInput) -> Series:
        request = rest_request(dataclasses.asdict(input), OpenSeriesRequest)
        gateway = _gateway(info)
        state = await open_as(gateway, await caller(info), request)
        return await series_of(series_service(gateway), state)

    @strawberry.mutation(description="A decision between two games, as `POST /series/{id}/decisions`.")
    async def decide_in_series(self, info: Info, input: SeriesDecisionInput) -> Series:
        given = dataclasses.asdict(input)
        series_id = _series_id(given)
        request = rest_request(given, DecisionRequest)
        gateway = _gateway(info)
        state = await decide_as(gateway, await caller(info), series_id, request)
        return await series_of(series_service(gateway), state)

    @strawberry.mutation(description="Close a series, as `POST /series/{id}/close`.")
    async def close_series(self, info: Info, input: CloseSeriesInput) -> Series:
        given = dataclasses.asdict(input)
        series_id = _series_id(given)
        request = rest_request(given, CloseSeriesRequest)
        gateway = _gateway(info)
        state = await close_as(gateway, await caller(info), series_id, request)
        return await series_of(series_service(gateway), state)
