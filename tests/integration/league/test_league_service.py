"""The league service on a real store: commands become events, retries are idempotent,
refusals change nothing, concurrent writers both get through."""

from __future__ import annotations

import asyncio

import pytest

from event_store import PostgresEventStore
from services.league.commands import CloseSeason, EnrollPlayer, FoundLeague, RegisterPlayer, SeatRound
from services.league.errors import RoundAlreadySeated, SeasonAlreadyClosed, UnknownEntity, UnknownPlayer
from services.league.events import PlayerEnrolled, RoundSeated
from services.league.service import LeagueService

from .league_setup import LEAGUE, MEMBERS, SEASON, TOURNAMENT, found_league


async def test_a_command_sent_twice_is_recorded_once(
    league: LeagueService, store: PostgresEventStore
) -> None:
    await found_league(league)
    command = SeatRound(league_id=LEAGUE, tournament_id=TOURNAMENT, round=1, seed="s")
    first = await league.execute(command, command_id="seat-1")
    again = await league.execute(command, command_id="seat-1")
    assert not first.duplicate and again.duplicate
    assert again.events == first.events and again.version == first.version
    assert isinstance(first.events[0], RoundSeated)
    assert await store.stream_version(f"league-{LEAGUE}") == first.version


async def test_refusals_are_typed_and_change_nothing(
    league: LeagueService, store: PostgresEventStore
) -> None:
    await found_league(league)
    seat = SeatRound(league_id=LEAGUE, tournament_id=TOURNAMENT, round=1, seed="s")
    await league.execute(seat, command_id="seat-1")
    stream = f"league-{LEAGUE}"
    version = await store.stream_version(stream)
    with pytest.raises(RoundAlreadySeated):
        await league.execute(seat, command_id="seat-1-again")
    with pytest.raises(UnknownPlayer):  # not a member of the club
        await league.execute(
            EnrollPlayer(league_id=LEAGUE, season_id=SEASON, member_id="stranger"), command_id="e"
        )
    with pytest.raises(UnknownPlayer):  # a member, but not enrolled in the season
        await league.execute(
            RegisterPlayer(club_id="club", member_id="late", name="Late"), command_id="r-late"
        )
        await league.execute(
            SeatRound(
                league_id=LEAGUE, tournament_id=TOURNAMENT, round=2, seed="s", entrants=("m00", "m01", "late")
            ),
            command_id="seat-2",
        )
    await league.execute(CloseSeason(league_id=LEAGUE, season_id=SEASON), command_id="close")
    with pytest.raises(SeasonAlreadyClosed):
        await league.execute(CloseSeason(league_id=LEAGUE, season_id=SEASON), command_id="close-again")
    with pytest.raises(UnknownEntity):
        await league.execute(CloseSeason(league_id="nowhere", season_id=SEASON), command_id="close-nowhere")
    with pytest.raises(UnknownEntity):  # a league needs an existing club
        await league.execute(FoundLeague(league_id="other", club_id="no_club", name="?"), command_id="f")
    assert await store.stream_version("league-other") == 0
    assert await store.stream_version(stream) == version + 1  # only the one close


async def test_concurrent_commands_on_one_league_are_retried_not_lost(league: LeagueService) -> None:
    await found_league(league, MEMBERS[:3])
    newcomers = [f"n{i}" for i in range(8)]
    for member in newcomers:
        await league.execute(
            RegisterPlayer(club_id="club", member_id=member, name=member), command_id=f"r/{member}"
        )
    results = await asyncio.gather(
        *(
            league.execute(
                EnrollPlayer(league_id=LEAGUE, season_id=SEASON, member_id=member),
                command_id=f"enrol/{member}",
            )
            for member in newcomers
        )
    )
    assert all(isinstance(r.events[0], PlayerEnrolled) for r in results)
    state = await league.load_league(LEAGUE)
    assert sorted(state.seasons[SEASON].entrants) == sorted([*MEMBERS[:3], *newcomers])
