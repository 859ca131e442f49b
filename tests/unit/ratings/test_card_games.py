"""A card game's result (here from a league's result sheet, which gives the same neutral result the
card engine does) is rated with the rulebook's factions, under the offsets of its own ruleset
only (eight players: ``cards eight_players``): the Law, the Outlaws and each Renegade alone."""

from __future__ import annotations

import pytest

from services.game.results import Side
from services.league.result_sheet import ResultSheet, SheetElimination, SheetSeat, check_sheet
from services.ratings import RatingBook, from_result
from services.ratings.store import game_type_of

CHARACTERS = ("willy_the_kid", "paul_regret", "lucky_duke", "el_gringo", "jourdonnais", "bart_cassidy",
              "rose_doolan", "sid_ketchum")  # fmt: skip
EIGHT = ("sheriff", "renegade", "renegade", "outlaw", "outlaw", "outlaw", "deputy", "deputy")


def eight_player_sheet(last_renegade_alone: bool) -> ResultSheet:
    members = [f"m{i}" for i in range(8)]
    seats = tuple(
        SheetSeat(member_id=m, role=role, character=c)
        for m, role, c in zip(members, EIGHT, CHARACTERS, strict=True)
    )
    falls = [("m3", "m1"), ("m4", "m2"), ("m5", "m1"), ("m6", "m2"), ("m7", "m1")]
    if last_renegade_alone:
        falls.append(("m1", "m2"))
    falls.append(("m0", "m2"))
    eliminations = tuple(SheetElimination(member_id=m, by=by, turn=t) for t, (m, by) in enumerate(falls, 1))
    if last_renegade_alone:
        return ResultSheet(seats=seats, eliminations=eliminations, winning_side="renegade", winners=("m2",))
    return ResultSheet(
        seats=seats, eliminations=eliminations, winning_side="outlaws", winners=("m3", "m4", "m5")
    )


@pytest.mark.parametrize("alone", [True, False])
def test_eight_players_rate_two_renegade_factions_under_the_card_offsets(alone: bool) -> None:
    outcome = from_result(check_sheet(eight_player_sheet(alone), "g8"))
    assert outcome.ruleset == "cards eight_players" and game_type_of(outcome.ruleset) == "cards"
    kinds = [f.kind for f in outcome.factions()]
    assert kinds == [Side.LAW, Side.OUTLAWS, Side.RENEGADE, Side.RENEGADE]
    winner = outcome.factions()[outcome.winner or 0]
    assert winner.kind == (Side.RENEGADE if alone else Side.OUTLAWS)
    book = RatingBook()
    changes = book.apply(outcome)
    assert sum(c.rating_after - c.rating_before for c in changes) == pytest.approx(0.0)
    assert set(book.offsets.cells) == {"cards eight_players"}
    assert {c.player for c in changes if c.rating_after > c.rating_before} == (
        {"m2"} if alone else {"m3", "m4", "m5"}
    )
