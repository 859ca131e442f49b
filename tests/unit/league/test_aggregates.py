"""The club and league aggregates: what each command causes, and every refusal changes nothing."""

from __future__ import annotations

import copy
from datetime import UTC, datetime

import msgspec
import pytest

from event_store import EventMetadata, RecordedEvent
from services.league import club, league
from services.league.commands import (
    CloseSeason,
    EnrollPlayer,
    FoundClub,
    FoundLeague,
    OpenSeason,
    OpenTournament,
    RegisterPlayer,
    ScheduleGame,
    SeatRound,
)
from services.league.errors import (
    AlreadyExists,
    InvalidCommand,
    InvalidTransition,
    PlayerSeatedTwice,
    RoundAlreadySeated,
    SeasonAlreadyClosed,
    UnknownEntity,
    UnknownPlayer,
)
from services.league.events import LEAGUE_MAPPER, GameScheduled, RoundSeated, SeasonClosed
from services.league.league import LeagueState
from services.league.vocabulary import SeatingPolicy

MEMBERS = [f"m{i:02d}" for i in range(10)]


def run(state: LeagueState, *commands: object) -> LeagueState:
    for command in commands:
        for event in league.decide(state, command):  # type: ignore[arg-type]
            league.evolve(state, event)
    return state


def a_league(entrants: list[str] = MEMBERS) -> LeagueState:
    return run(
        LeagueState(),
        FoundLeague(league_id="l", club_id="c", name="L"),
        OpenSeason(league_id="l", season_id="s1", name="Spring"),
        *[EnrollPlayer(league_id="l", season_id="s1", member_id=m) for m in entrants],
        OpenTournament(league_id="l", season_id="s1", tournament_id="t", name="Nights"),
    )


def seat(round_number: int = 1, **fields: object) -> SeatRound:
    return SeatRound(league_id="l", tournament_id="t", round=round_number, seed="x", **fields)  # type: ignore[arg-type]


def refused(state: LeagueState, command: object, error: type[Exception]) -> None:
    before = copy.deepcopy(state)
    with pytest.raises(error):
        league.decide(state, command)  # type: ignore[arg-type]
    assert state == before


def test_club_founding_and_registration() -> None:
    state = club.ClubState()
    for command in (
        FoundClub(club_id="c", name="Saloon"),
        RegisterPlayer(club_id="c", member_id="ann", name="Ann"),
    ):
        for event in club.decide(state, command):
            club.evolve(state, event)
    assert state.members == {"ann": "Ann"}
    with pytest.raises(AlreadyExists):
        club.decide(state, FoundClub(club_id="c", name="Again"))
    with pytest.raises(AlreadyExists):
        club.decide(state, RegisterPlayer(club_id="c", member_id="ann", name="Ann"))
    with pytest.raises(UnknownEntity):
        club.decide(club.ClubState(), RegisterPlayer(club_id="x", member_id="bob", name="Bob"))
    with pytest.raises(InvalidCommand):
        club.decide(state, RegisterPlayer(club_id="c", member_id="has space", name="?"))


def test_a_round_is_seated_from_the_enrolled_players() -> None:
    state = a_league()
    [event] = league.decide(state, seat(scores={"m00": 3.0}))
    assert isinstance(event, RoundSeated)
    assert sorted(m for t in event.tables for m in t.members) == MEMBERS
    assert event.scores["m00"] == 3.0 and event.scores["m01"] == 0.0
    assert all(t.sheriff in t.members for t in event.tables)


def test_seating_twice_skipping_a_round_or_unknown_players_is_refused() -> None:
    state = run(a_league(), seat())
    refused(state, seat(), RoundAlreadySeated)
    refused(state, seat(3), InvalidTransition)
    refused(state, seat(2, entrants=("m00", "m01", "zed")), UnknownPlayer)
    refused(state, SeatRound(league_id="l", tournament_id="nope", round=1, seed="x"), UnknownEntity)


def test_organisers_tables_are_checked() -> None:
    state = a_league()
    refused(state, seat(tables=(("m00", "m01", "m02"), ("m02", "m03", "m04"))), PlayerSeatedTwice)
    refused(state, seat(tables=(("m00", "m01"),)), InvalidCommand)
    refused(state, seat(tables=(("m00", "m01", "ghost"),)), UnknownPlayer)
    [event] = league.decide(state, seat(tables=(("m00", "m01", "m02", "m03"), ("m04", "m05", "m06"))))
    assert isinstance(event, RoundSeated)
    assert event.byes == ("m07", "m08", "m09")
    assert event.tables[0].sheriff in event.tables[0].members
    assert event.tables[1].sheriff is None  # a three-player table has no Sheriff


def test_closing_a_season_twice_or_acting_in_a_closed_season_is_refused() -> None:
    state = run(a_league(), seat())
    [closed] = league.decide(state, CloseSeason(league_id="l", season_id="s1"))
    assert isinstance(closed, SeasonClosed)
    league.evolve(state, closed)
    refused(state, CloseSeason(league_id="l", season_id="s1"), SeasonAlreadyClosed)
    refused(state, seat(2), SeasonAlreadyClosed)
    refused(state, EnrollPlayer(league_id="l", season_id="s1", member_id="m10"), SeasonAlreadyClosed)
    refused(state, CloseSeason(league_id="l", season_id="s9"), UnknownEntity)


def test_founding_opening_and_enrolling_twice_is_refused() -> None:
    state = a_league()
    refused(state, FoundLeague(league_id="l", club_id="c", name="L"), AlreadyExists)
    refused(state, OpenSeason(league_id="l", season_id="s1", name="again"), AlreadyExists)
    refused(state, EnrollPlayer(league_id="l", season_id="s1", member_id="m00"), AlreadyExists)
    refused(state, OpenTournament(league_id="l", season_id="s1", tournament_id="t", name="T"), AlreadyExists)
    refused(
        state,
        OpenTournament(
            league_id="l",
            season_id="s1",
            tournament_id="t2",
            name="T",
            seating=SeatingPolicy(allowed_sizes=(9,), preferred_size=9),
        ),
        InvalidCommand,
    )
    with pytest.raises(UnknownEntity):
        league.decide(LeagueState(), OpenSeason(league_id="l", season_id="s", name="S"))


def test_scheduling_a_tables_game_is_idempotent_and_exclusive() -> None:
    state = run(a_league(), seat())
    schedule = ScheduleGame(league_id="l", tournament_id="t", round=1, table=1, game_id="g1")
    [event] = league.decide(state, schedule)
    assert isinstance(event, GameScheduled)
    league.evolve(state, event)
    assert league.decide(state, schedule) == []
    refused(
        state, ScheduleGame(league_id="l", tournament_id="t", round=1, table=1, game_id="g2"), AlreadyExists
    )
    refused(
        state, ScheduleGame(league_id="l", tournament_id="t", round=1, table=9, game_id="g3"), UnknownEntity
    )


def test_events_survive_the_store_mapping_and_the_fold_is_a_pure_replay() -> None:
    state = LeagueState()
    history = []
    for command in (
        FoundLeague(league_id="l", club_id="c", name="L"),
        OpenSeason(league_id="l", season_id="s1", name="Spring"),
        *[EnrollPlayer(league_id="l", season_id="s1", member_id=m) for m in MEMBERS],
        OpenTournament(league_id="l", season_id="s1", tournament_id="t", name="Nights"),
        seat(),
        seat(2),
    ):
        for event in league.decide(state, command):  # type: ignore[arg-type]
            league.evolve(state, event)
            history.append(event)
    decoded = []
    for version, event in enumerate(history, start=1):
        new = LEAGUE_MAPPER.to_new_event(event)
        assert isinstance(new.data, bytes)
        recorded = RecordedEvent(
            position=version,
            stream="league-l",
            version=version,
            event_id=new.event_id,
            type=new.type,
            schema_version=new.schema_version,
            data=msgspec.json.decode(new.data),
            metadata=EventMetadata(),
            recorded_at=datetime.now(UTC),
            hash=b"",
            prev_hash=b"",
        )
        decoded.append(LEAGUE_MAPPER.to_domain(recorded))
    assert decoded == history
    replayed = league.fold(decoded)
    assert replayed.seasons["s1"].history == state.seasons["s1"].history
    assert replayed.tournaments["t"].rounds.keys() == {1, 2}
