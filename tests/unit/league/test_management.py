"""The league commands organisers send through the public API: scheduling with a mode and a
scorekeeper, forfeits and no-shows, closing a round, voiding a game, enrolling several members.
Each refusal changes nothing (``refused`` compares the state before and after)."""

from __future__ import annotations

import pytest

from services.league import league
from services.league.commands import (
    CloseRound,
    CloseSeason,
    EnrollPlayers,
    RecordForfeit,
    ScheduleGame,
    VoidGame,
)
from services.league.errors import (
    AlreadyExists,
    InvalidCommand,
    RoundClosedAlready,
    SeasonAlreadyClosed,
    UnknownEntity,
    UnknownPlayer,
)
from services.league.events import ForfeitRecorded, GameScheduled, GameVoided, PlayerEnrolled, RoundClosed
from services.league.league import MAX_REASON_LENGTH, LeagueState
from tests.unit.league.test_aggregates import MEMBERS, a_league, refused, run, seat


def seated() -> LeagueState:
    return run(a_league(), seat())


def schedule(table: int = 1, game_id: str = "g1", **fields: object) -> ScheduleGame:
    return ScheduleGame(league_id="l", tournament_id="t", round=1, table=table, game_id=game_id, **fields)  # type: ignore[arg-type]


def forfeit(member: str, table: int = 1, **fields: object) -> RecordForfeit:
    return RecordForfeit(league_id="l", tournament_id="t", round=1, table=table, member_id=member, **fields)  # type: ignore[arg-type]


def close(round_number: int = 1) -> CloseRound:
    return CloseRound(league_id="l", tournament_id="t", round=round_number, closed_by="org")


def void(game_id: str = "g1", reason: str = "dice entered twice") -> VoidGame:
    return VoidGame(league_id="l", game_id=game_id, reason=reason, voided_by="ref")


def member_of(state: LeagueState, table: int = 1) -> str:
    return state.tournaments["t"].rounds[1].tables[table - 1].members[0]


def test_a_table_game_is_scheduled_with_its_mode_scorekeeper_and_organiser() -> None:
    state = seated()
    [event] = league.decide(state, schedule(mode="table", scorekeeper="keeper", scheduled_by="org"))
    assert event == GameScheduled(
        league_id="l", tournament_id="t", round=1, table=1, game_id="g1",
        mode="table", scorekeeper="keeper", scheduled_by="org",
    )  # fmt: skip
    league.evolve(state, event)
    assert state.games == {"g1": ("t", 1, 1)}


def test_scheduling_refuses_a_bad_mode_an_online_scorekeeper_and_a_game_id_of_another_table() -> None:
    state = run(seated(), schedule(mode="online"))
    refused(state, schedule(2, "g2", mode="postal"), InvalidCommand)
    refused(state, schedule(2, "g2", mode="online", scorekeeper="keeper"), InvalidCommand)
    refused(state, schedule(2, "g1", mode="online"), AlreadyExists)


def test_a_schedule_without_a_mode_still_works_as_before() -> None:
    state = seated()
    [event] = league.decide(state, schedule())
    assert isinstance(event, GameScheduled) and event.mode is None and event.scorekeeper is None


def test_a_forfeit_names_a_member_seated_at_that_table_once_per_round() -> None:
    state = seated()
    member = member_of(state)
    [event] = league.decide(state, forfeit(member, kind="no-show", reason=" late bus "))
    assert isinstance(event, ForfeitRecorded)
    assert (event.kind, event.reason) == ("no-show", "late bus")
    league.evolve(state, event)
    assert state.tournaments["t"].rounds[1].forfeits == {member: "no-show"}
    refused(state, forfeit(member), AlreadyExists)
    other_table = member_of(state, 2)
    refused(state, forfeit(other_table), UnknownPlayer)  # seated, but at table 2
    refused(state, forfeit("stranger"), UnknownPlayer)
    refused(state, forfeit(member_of(state, 2), table=2, kind="resigned"), InvalidCommand)
    long_reason = "x" * (MAX_REASON_LENGTH + 1)
    refused(state, forfeit(member_of(state, 2), table=2, reason=long_reason), InvalidCommand)
    refused(state, forfeit(member_of(state, 2), table=9), UnknownEntity)
    round_two = RecordForfeit(league_id="l", tournament_id="t", round=2, table=1, member_id=member)
    refused(state, round_two, UnknownEntity)


def test_a_closed_round_takes_no_schedule_and_no_forfeit_and_closes_once() -> None:
    state = seated()
    [event] = league.decide(state, close())
    assert event == RoundClosed(league_id="l", tournament_id="t", round=1, closed_by="org")
    league.evolve(state, event)
    refused(state, close(), RoundClosedAlready)
    refused(state, schedule(mode="online"), RoundClosedAlready)
    refused(state, forfeit(member_of(state)), RoundClosedAlready)
    refused(state, close(2), UnknownEntity)
    # the next round is seated as before
    assert league.decide(state, seat(2))


def test_a_void_names_a_game_of_this_league_with_a_reason_once() -> None:
    state = run(seated(), schedule(mode="table"), close())
    refused(state, void("elsewhere"), UnknownEntity)
    refused(state, void(reason="   "), InvalidCommand)
    refused(state, void(reason="x" * (MAX_REASON_LENGTH + 1)), InvalidCommand)
    [event] = league.decide(state, void())  # a closed round's game may still be voided
    assert event == GameVoided(league_id="l", game_id="g1", reason="dice entered twice", voided_by="ref")
    league.evolve(state, event)
    assert state.voided == {"g1": "dice entered twice"}
    refused(state, void(reason="again"), AlreadyExists)


def test_several_members_enrol_in_one_event_each_or_none_at_all() -> None:
    state = a_league(MEMBERS[:5])
    command = EnrollPlayers(league_id="l", season_id="s1", member_ids=("m05", "m06"))
    events = league.decide(state, command)
    assert events == [
        PlayerEnrolled(league_id="l", season_id="s1", member_id="m05"),
        PlayerEnrolled(league_id="l", season_id="s1", member_id="m06"),
    ]
    refused(state, EnrollPlayers(league_id="l", season_id="s1", member_ids=("m07", "m00")), AlreadyExists)
    refused(state, EnrollPlayers(league_id="l", season_id="s1", member_ids=("m07", "m07")), InvalidCommand)
    refused(state, EnrollPlayers(league_id="l", season_id="s1", member_ids=()), InvalidCommand)
    refused(state, EnrollPlayers(league_id="l", season_id="s9", member_ids=("m07",)), UnknownEntity)


def test_nothing_is_scheduled_or_forfeited_in_a_closed_season() -> None:
    state = run(seated(), CloseSeason(league_id="l", season_id="s1"))
    refused(state, schedule(mode="online"), SeasonAlreadyClosed)
    refused(state, forfeit(member_of(state)), SeasonAlreadyClosed)


@pytest.mark.parametrize("kind", ["forfeit", "no-show"])
def test_both_kinds_of_forfeit_are_recorded(kind: str) -> None:
    state = seated()
    [event] = league.decide(state, forfeit(member_of(state), kind=kind))
    assert isinstance(event, ForfeitRecorded) and event.kind == kind
