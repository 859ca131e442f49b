"""Result sheets of card games played on cardboard: one test per rule the check enforces, each
refusal in words, and what a valid sheet becomes (the neutral result standings and ratings read)."""

from __future__ import annotations

import msgspec
import pytest

from services.game.results import FinishKind, GameType, Role
from services.game.rules.cards.vocabulary import CharacterId
from services.league.errors import InvalidCommand
from services.league.result_sheet import (
    CARD_CHARACTERS,
    ResultSheet,
    SheetElimination,
    SheetSeat,
    check_sheet,
    winner_of,
)

FIVE = (
    SheetSeat(member_id="ann", role="sheriff", character="willy_the_kid"),
    SheetSeat(member_id="bob", role="renegade", character="paul_regret"),
    SheetSeat(member_id="cat", role="outlaw", character="el_gringo"),
    SheetSeat(member_id="dan", role="outlaw", character="jourdonnais"),
    SheetSeat(member_id="eve", role="deputy", character="rose_doolan"),
)


def fall(member: str, by: str | None, turn: int) -> SheetElimination:
    return SheetElimination(member_id=member, by=by, turn=turn)


LAW_WINS = ResultSheet(
    seats=FIVE,
    eliminations=(fall("cat", "ann", 3), fall("dan", "eve", 5), fall("bob", None, 7)),
    winning_side="law",
    winners=("ann", "eve"),
)


def refused(sheet: ResultSheet, words: str) -> None:
    with pytest.raises(InvalidCommand) as error:
        check_sheet(sheet, "g1")
    assert words in str(error.value)


def test_a_law_win_becomes_the_neutral_result_of_a_card_game() -> None:
    result = check_sheet(LAW_WINS, "g1")
    assert (result.game_type, result.ruleset, result.finish) == (GameType.CARDS, "cards", FinishKind.WON)
    assert result.winners == ("law",)
    assert [(s.seat, s.member_id, s.base_role, s.side, s.alive, s.won) for s in result.seats] == [
        ("p1", "ann", Role.SHERIFF, "law", True, True),
        ("p2", "bob", Role.RENEGADE, "renegade", False, False),
        ("p3", "cat", Role.OUTLAW, "outlaws", False, False),
        ("p4", "dan", Role.OUTLAW, "outlaws", False, False),
        ("p5", "eve", Role.DEPUTY, "law", True, True),
    ]
    assert [(e.seat, e.by, e.turn) for e in result.eliminations] == [
        ("p3", "p1", 3),
        ("p4", "p5", 5),
        ("p2", None, 7),
    ]
    assert result.turn == 7


def test_the_sheriff_dead_with_others_alive_is_the_outlaws_win_dead_ones_included() -> None:
    sheet = ResultSheet(
        seats=FIVE,
        eliminations=(fall("cat", "eve", 2), fall("ann", "dan", 4)),
        winning_side="outlaws",
        winners=("cat", "dan"),
    )
    result = check_sheet(sheet, "g1")
    assert {s.member_id for s in result.seats if s.won} == {"cat", "dan"}


def test_the_renegade_alone_against_the_sheriff_wins_alone() -> None:
    sheet = ResultSheet(
        seats=FIVE,
        eliminations=(
            fall("cat", "bob", 2),
            fall("dan", "bob", 3),
            fall("eve", "bob", 4),
            fall("ann", "bob", 6),
        ),
        winning_side="renegade",
        winners=("bob",),
    )
    assert [s.member_id for s in check_sheet(sheet, "g1").seats if s.won] == ["bob"]


EIGHT = (
    SheetSeat(member_id="s", role="sheriff", character="willy_the_kid"),
    SheetSeat(member_id="r1", role="renegade", character="paul_regret"),
    SheetSeat(member_id="r2", role="renegade", character="lucky_duke"),
    SheetSeat(member_id="o1", role="outlaw", character="el_gringo"),
    SheetSeat(member_id="o2", role="outlaw", character="jourdonnais"),
    SheetSeat(member_id="o3", role="outlaw", character="bart_cassidy"),
    SheetSeat(member_id="d1", role="deputy", character="rose_doolan"),
    SheetSeat(member_id="d2", role="deputy", character="sid_ketchum"),
)


def test_eight_players_both_renegades_alive_at_the_sheriffs_death_is_the_outlaws_win() -> None:
    falls = (
        fall("o1", "r1", 1),
        fall("o2", "r2", 2),
        fall("o3", "r1", 3),
        fall("d1", "r2", 4),
        fall("d2", "r1", 5),
        fall("s", "r2", 6),
    )
    sheet = ResultSheet(seats=EIGHT, eliminations=falls, winning_side="outlaws", winners=("o1", "o2", "o3"))
    assert check_sheet(sheet, "g8").winners == ("outlaws",)
    refused(
        msgspec.structs.replace(sheet, winning_side="renegade", winners=("r2",)),
        "the Sheriff is dead and the Renegade is not alone: outlaws won",
    )


def test_eight_players_the_last_renegade_alone_wins_and_the_other_does_not() -> None:
    falls = (
        fall("o1", "r1", 1),
        fall("o2", "r2", 2),
        fall("o3", "r1", 3),
        fall("d1", "r2", 4),
        fall("d2", "r1", 5),
        fall("r1", "r2", 6),
        fall("s", "r2", 7),
    )
    sheet = ResultSheet(seats=EIGHT, eliminations=falls, winning_side="renegade", winners=("r2",))
    won = {s.member_id: s.won for s in check_sheet(sheet, "g8").seats}
    assert won["r2"] and not won["r1"]


def test_the_table_size_is_four_to_eight() -> None:
    refused(ResultSheet(seats=FIVE[:3], winning_side="law", winners=()), "4 to 8 players")


def test_the_roles_are_the_set_dealt_at_that_size() -> None:
    seats = (*FIVE[:4], msgspec.structs.replace(FIVE[4], role="outlaw"))
    refused(
        msgspec.structs.replace(LAW_WINS, seats=seats),
        "5 players are dealt 1 sheriff, 1 deputy, 2 outlaw, 1 renegade; the sheet has 1 sheriff, 3 outlaw",
    )


def test_a_role_is_one_of_the_four() -> None:
    seats = (*FIVE[:4], msgspec.structs.replace(FIVE[4], role="zombie"))
    refused(msgspec.structs.replace(LAW_WINS, seats=seats), "eve's role 'zombie' is not one of")


def test_a_character_is_one_of_the_sixteen() -> None:
    seats = (*FIVE[:4], msgspec.structs.replace(FIVE[4], character="lucky_luke"))
    refused(
        msgspec.structs.replace(LAW_WINS, seats=seats), "eve's character 'lucky_luke' is not one of the 16"
    )


def test_characters_are_distinct() -> None:
    seats = (*FIVE[:4], msgspec.structs.replace(FIVE[4], character="willy_the_kid"))
    refused(msgspec.structs.replace(LAW_WINS, seats=seats), "willy_the_kid twice")


def test_a_member_holds_one_seat() -> None:
    seats = (*FIVE[:4], msgspec.structs.replace(FIVE[4], member_id="ann"))
    refused(msgspec.structs.replace(LAW_WINS, seats=seats), "a member holds two seats: ann")


def test_every_eliminated_seat_falls_once() -> None:
    falls = (fall("cat", "ann", 3), fall("cat", "ann", 4))
    refused(msgspec.structs.replace(LAW_WINS, eliminations=falls), "cat was eliminated already")


def test_the_eliminated_has_a_seat() -> None:
    refused(msgspec.structs.replace(LAW_WINS, eliminations=(fall("zed", "ann", 3),)), "zed has no seat")


def test_the_eliminator_is_alive_then() -> None:
    falls = (fall("cat", "ann", 3), fall("dan", "cat", 5), fall("bob", None, 7))
    refused(msgspec.structs.replace(LAW_WINS, eliminations=falls), "the eliminator cat was eliminated before")


def test_the_eliminator_has_a_seat() -> None:
    falls = (fall("cat", "zed", 3),)
    refused(msgspec.structs.replace(LAW_WINS, eliminations=falls), "the eliminator zed has no seat")


def test_nobody_eliminates_himself_on_a_sheet_his_own_duel_is_nobody() -> None:
    falls = (fall("cat", "cat", 3),)
    refused(msgspec.structs.replace(LAW_WINS, eliminations=falls), "eliminated by nobody")


def test_turns_never_go_back() -> None:
    falls = (fall("cat", "ann", 5), fall("dan", "eve", 3), fall("bob", None, 7))
    refused(msgspec.structs.replace(LAW_WINS, eliminations=falls), "turn 3 comes before turn 5")


def test_nothing_happens_after_the_game_is_over() -> None:
    falls = (fall("ann", "cat", 2), fall("bob", "dan", 4))
    sheet = msgspec.structs.replace(
        LAW_WINS, eliminations=falls, winning_side="outlaws", winners=("cat", "dan")
    )
    refused(sheet, "the game was over before turn 4 (outlaws had won)")


def test_one_resolution_killing_the_last_outlaw_and_the_sheriff_is_the_outlaws_win() -> None:
    # the Deputy's Gatling: the last Outlaw and the Sheriff fall in one resolution; the end is
    # checked after both, and the Sheriff's condition comes first
    falls = (fall("cat", "ann", 2), fall("bob", "eve", 3), fall("dan", "eve", 5), fall("ann", "eve", 5))
    sheet = ResultSheet(seats=FIVE, eliminations=falls, winning_side="outlaws", winners=("cat", "dan"))
    assert check_sheet(sheet, "g1").winners == ("outlaws",)


def test_the_game_must_be_over() -> None:
    refused(msgspec.structs.replace(LAW_WINS, eliminations=LAW_WINS.eliminations[:2]), "not over")


def test_the_sheriff_alive_means_the_law_won() -> None:
    refused(msgspec.structs.replace(LAW_WINS, winning_side="outlaws", winners=("cat", "dan")), "law won")


def test_the_winners_are_exactly_the_winning_sides_seats() -> None:
    refused(msgspec.structs.replace(LAW_WINS, winners=("ann",)), "the winners are law's seats: ann, eve")
    refused(msgspec.structs.replace(LAW_WINS, winners=("ann", "eve", "eve")), "the sheet lists ann, eve, eve")


def test_the_characters_are_the_card_engines() -> None:
    assert frozenset(c.value for c in CharacterId) == CARD_CHARACTERS


def test_the_end_rule_on_who_is_left() -> None:
    s, d, o, r = Role.SHERIFF, Role.DEPUTY, Role.OUTLAW, Role.RENEGADE
    assert winner_of((s, r, o, o), (True, True, False, False)) is None
    assert winner_of((s, r, o, o), (True, False, False, False)).value == "law"
    assert winner_of((s, r, o, o), (False, True, False, False)).value == "renegade"
    assert winner_of((s, r, o, d), (False, True, False, True)).value == "outlaws"
