"""A league plays one game type: founded with it (old events are dice), seated at that type's table
sizes, scheduled only with games of it (the integrity rule names the difference), and a result
sheet only for a card league's scheduled table game, as seated."""

from __future__ import annotations

import msgspec
import pytest

from services.game.application.lifecycle import GameContext, GameMode
from services.game.application.service import NewGame
from services.game.rules.ruleset import ruleset_of
from services.league import league
from services.league.commands import (
    EnrollPlayers,
    FoundLeague,
    OpenSeason,
    OpenTournament,
    RecordResultSheet,
    ScheduleGame,
    SeatRound,
    VoidGame,
)
from services.league.errors import (
    AlreadyExists,
    InvalidCommand,
    InvalidTransition,
    LeagueError,
    ScheduleMismatch,
)
from services.league.events import LeagueFounded
from services.league.integrity import Creator, check_new_game
from services.league.league import LeagueState
from services.league.reservations import Reservation
from services.league.result_sheet import ResultSheet, SheetElimination, SheetSeat
from services.league.vocabulary import SeatingPolicy

MEMBERS = [f"m{i}" for i in range(8)]


def run(state: LeagueState, *commands: object) -> LeagueState:
    for command in commands:
        for event in league.decide(state, command):  # type: ignore[arg-type]
            league.evolve(state, event)
    return state


def a_card_league() -> LeagueState:
    return run(
        LeagueState(),
        FoundLeague(league_id="L", club_id="C", name="Cards", game_type="cards"),
        OpenSeason(league_id="L", season_id="S", name="Spring"),
        EnrollPlayers(league_id="L", season_id="S", member_ids=tuple(MEMBERS)),
        OpenTournament(league_id="L", season_id="S", tournament_id="T", name="Nights"),
        SeatRound(league_id="L", tournament_id="T", round=1, seed="x"),
    )


def test_a_league_founded_before_game_types_plays_dice() -> None:
    founded = LeagueFounded(
        league_id="L", club_id="C", name="Old", points=league.PointsScheme(), seating=SeatingPolicy()
    )
    data = msgspec.to_builtins(founded)
    del data["game_type"]
    old = msgspec.convert(data, LeagueFounded)
    assert old.game_type == "dice"
    assert league.fold([old]).game_type == "dice"


def test_a_league_plays_dice_or_cards() -> None:
    with pytest.raises(InvalidCommand, match="a league plays dice or cards, not 'chess'"):
        league.decide(LeagueState(), FoundLeague(league_id="L", club_id="C", name="x", game_type="chess"))


def test_card_tables_seat_four_to_eight() -> None:
    small = SeatingPolicy(allowed_sizes=(3, 4), preferred_size=4)
    with pytest.raises(InvalidCommand, match=r"cards table sizes must lie in 4\.\.8"):
        league.decide(
            LeagueState(), FoundLeague(league_id="L", club_id="C", name="x", game_type="cards", seating=small)
        )
    # the dice game seats three
    league.decide(LeagueState(), FoundLeague(league_id="L", club_id="C", name="x", seating=small))
    state = a_card_league()
    assert all(4 <= len(t.members) <= 7 for t in state.round("T", 1).tables)
    tournament = OpenTournament(league_id="L", season_id="S", tournament_id="U", name="u", seating=small)
    with pytest.raises(InvalidCommand, match="cards table sizes"):
        league.decide(state, tournament)
    run(state, OpenTournament(league_id="L", season_id="S", tournament_id="U", name="u"))
    own = SeatRound(league_id="L", tournament_id="U", round=1, seed="x", tables=(("m0", "m1", "m2"),))
    with pytest.raises(InvalidCommand, match="a cards table seats 4 to 8 players, not 3"):
        league.decide(state, own)


def reservation(game_type: str, **fields: object) -> Reservation:
    return Reservation(
        game_id="g1", league_id="L", club_id="C", season_id="S", tournament_id="T", round=1, table=1,
        mode="online", members=("a", "b", "c", "d"), sheriff="a", scorekeeper=None, scheduled_by="o",
        game_type=game_type, **fields,  # type: ignore[arg-type]
    )  # fmt: skip


def online_game() -> NewGame:
    from services.game.application.service import Member

    return NewGame(
        mode=GameMode.ONLINE,
        player_count=4,
        members=tuple(Member(member_id=m, name=m) for m in "abcd"),
        sheriff_member="a",
        context=GameContext(league_id="L", season_id="S", tournament_id="T", round=1, table=1),
        game_id="g1",
    )


def test_a_dice_game_does_not_match_a_card_leagues_schedule() -> None:
    organiser = Creator(account_id="o", organises=True)
    with pytest.raises(ScheduleMismatch, match="game type is 'dice', scheduled 'cards'"):
        check_new_game(reservation("cards"), online_game(), organiser)
    check_new_game(reservation("dice"), online_game(), organiser)
    cards = msgspec.structs.replace(online_game(), ruleset=ruleset_of((), "cards"))
    check_new_game(reservation("cards"), cards, organiser)


def test_no_game_is_created_for_a_table_whose_sheet_is_recorded() -> None:
    with pytest.raises(ScheduleMismatch, match="played on cardboard"):
        check_new_game(
            reservation("cards", result_sheet=True), online_game(), Creator(account_id="o", organises=True)
        )


def sheet_of(state: LeagueState) -> ResultSheet:
    table = state.round("T", 1).tables[0]
    members = list(table.members)
    others = [m for m in members if m != table.sheriff]
    roles = ["renegade", "outlaw", "outlaw", "deputy", "outlaw", "deputy"][: len(others)]
    chars = [
        "willy_the_kid",
        "paul_regret",
        "el_gringo",
        "jourdonnais",
        "rose_doolan",
        "lucky_duke",
        "sid_ketchum",
    ]
    role_of = {table.sheriff: "sheriff", **dict(zip(others, roles, strict=False))}
    seats = tuple(SheetSeat(member_id=m, role=role_of[m], character=chars[i]) for i, m in enumerate(members))
    enemies = [m for m in members if role_of[m] in ("outlaw", "renegade")]
    assert table.sheriff is not None
    falls = tuple(SheetElimination(member_id=m, by=table.sheriff, turn=t) for t, m in enumerate(enemies, 1))
    winners = tuple(m for m in members if role_of[m] in ("sheriff", "deputy"))
    return ResultSheet(seats=seats, eliminations=falls, winning_side="law", winners=winners)


def recording(state: LeagueState, sheet: ResultSheet, game_id: str = "g1") -> RecordResultSheet:
    return RecordResultSheet(league_id="L", tournament_id="T", round=1, table=1, game_id=game_id, sheet=sheet)


def test_a_sheet_is_for_a_scheduled_table_game_as_seated_once() -> None:
    state = a_card_league()
    sheet = sheet_of(state)
    with pytest.raises(LeagueError, match="schedule the table's game before its result sheet"):
        league.decide(state, recording(state, sheet))
    run(state, ScheduleGame(league_id="L", tournament_id="T", round=1, table=1, game_id="g1", mode="table"))
    with pytest.raises(InvalidCommand, match="plays game 'g1', not 'g2'"):
        league.decide(state, recording(state, sheet, "g2"))
    stranger = msgspec.structs.replace(sheet.seats[1], member_id="zz")
    swapped = msgspec.structs.replace(sheet, seats=(sheet.seats[0], stranger, *sheet.seats[2:]))
    with pytest.raises(InvalidCommand, match="not seated at T round 1 table 1: zz"):
        league.decide(state, recording(state, swapped))
    # the Sheriff's card in the Renegade's hands: not the rotation's Sheriff
    swap = {"sheriff": "renegade", "renegade": "sheriff"}
    wrong_sheriff = tuple(msgspec.structs.replace(s, role=swap.get(s.role, s.role)) for s in sheet.seats)
    with pytest.raises(InvalidCommand, match="the rotation's Sheriff"):
        league.decide(state, recording(state, msgspec.structs.replace(sheet, seats=wrong_sheriff)))
    [event] = league.decide(state, recording(state, sheet))
    assert event.replayable is False and event.result.game_type == "cards"  # type: ignore[attr-defined]
    league.evolve(state, event)
    with pytest.raises(AlreadyExists):
        league.decide(state, recording(state, sheet))


def test_a_sheet_is_refused_for_an_online_or_voided_game_and_in_a_dice_league() -> None:
    state = a_card_league()
    run(state, ScheduleGame(league_id="L", tournament_id="T", round=1, table=1, game_id="g1", mode="online"))
    with pytest.raises(InvalidCommand, match="an online game"):
        league.decide(state, recording(state, sheet_of(state)))
    state = a_card_league()
    run(
        state,
        ScheduleGame(league_id="L", tournament_id="T", round=1, table=1, game_id="g1", mode="table"),
        VoidGame(league_id="L", game_id="g1", reason="wrong table", voided_by="r"),
    )
    with pytest.raises(InvalidTransition, match="was voided"):
        league.decide(state, recording(state, sheet_of(state)))
    dice = a_card_league()
    dice.game_type = "dice"
    with pytest.raises(InvalidCommand, match="a result sheet is for a card game; league 'L' plays dice"):
        league.decide(dice, recording(dice, sheet_of(dice)))
