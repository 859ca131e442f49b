"""An Undead or Alive end in neutral words (docs/rulings.md, UA4): each seat's side at the end,
the zombies' win shared with their Master, a zombie still in play counted in play."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from event_store import PayloadDecodeError
from services.game.results import OUTBREAK_SIDES, ZOMBIE_WINNERS, Elimination, FinishKind, GameFinish, Side
from services.game.results.decoder import dice_finish

from .outbreak_ends import OUTBREAK_TURN, no_outbreak_law_win, survivor_win, zombie_win


@pytest.mark.parametrize("zombies_in_play_alive", [True, False])
def test_a_zombie_win_names_the_zombies_and_their_master(zombies_in_play_alive: bool) -> None:
    finish = dice_finish(zombie_win(zombies_in_play_alive=zombies_in_play_alive))
    assert finish.finish is FinishKind.WON
    assert finish.winners == ZOMBIE_WINNERS == ("zombies", "zombie_master")
    assert finish.winning_side == Side.ZOMBIES
    # sides at the end, dealt roles kept; p3 is a zombie in play whichever way the engine says
    # it, p5 was put out for good after the outbreak
    assert [(s.seat, s.role, s.side, s.won, s.alive) for s in finish.seats] == [
        ("p1", "sheriff", "survivors", False, False),
        ("p2", "renegade", "zombie_master", True, True),
        ("p3", "outlaw", "zombies", True, True),
        ("p4", "outlaw", "survivors", False, False),
        ("p5", "deputy", "zombies", True, False),
    ]
    # every elimination on record, by turn then seat (the engine clears a zombie's first one at
    # the outbreak; when a record keeps it, it is listed)
    later = (
        Elimination(seat="p5", by="p4", cause="shoot1", turn=8),
        Elimination(seat="p1", by="p3", cause="shoot1", turn=10),
        Elimination(seat="p4", by="p2", cause="shoot1", turn=10),
    )
    first = () if zombies_in_play_alive else (Elimination(seat="p3", by="p1", cause="shoot1", turn=3),)
    assert finish.eliminations == first + later
    assert msgspec.json.decode(msgspec.json.encode(finish), type=GameFinish) == finish


def test_a_survivor_win_is_one_side_whatever_the_roles() -> None:
    finish = dice_finish(survivor_win())
    assert finish.winners == ("survivors",)
    assert [(s.role, s.side, s.won, s.alive) for s in finish.seats] == [
        ("sheriff", "survivors", True, True),
        ("renegade", "zombies", False, False),  # a dead Renegade is a plain zombie, no Master
        ("outlaw", "zombies", False, False),
        ("outlaw", "survivors", True, False),
        ("deputy", "survivors", True, True),
    ]
    assert {s.side for s in finish.seats} <= OUTBREAK_SIDES


def test_a_ua4_game_without_an_outbreak_reads_as_a_base_game() -> None:
    finish = dice_finish(no_outbreak_law_win())
    assert finish.winners == ("law",)
    assert [s.side for s in finish.seats] == ["law", "renegade", "outlaws", "outlaws", "law"]
    assert [s.alive for s in finish.seats] == [True, False, False, False, True]


def test_the_recorded_payload_is_read_by_name_and_checked() -> None:
    ended = zombie_win(zombies_in_play_alive=False)
    data: dict[str, Any] = msgspec.to_builtins(ended)
    assert data["outbreak_turn"] == OUTBREAK_TURN and data["results"][2]["zombie"] is True
    assert dice_finish(ended, data) == dice_finish(ended)

    bad_flag = msgspec.to_builtins(ended)
    bad_flag["results"][2]["zombie"] = "yes"
    with pytest.raises(PayloadDecodeError, match="zombie flag is 'yes'"):
        dice_finish(ended, bad_flag)

    bad_turn = msgspec.to_builtins(ended)
    bad_turn["outbreak_turn"] = "six"
    with pytest.raises(PayloadDecodeError, match="outbreak turn is 'six'"):
        dice_finish(ended, bad_turn)

    # a zombie out of play with no outbreak on record cannot be placed: refused, not guessed
    no_turn = msgspec.to_builtins(ended)
    del no_turn["outbreak_turn"]
    with pytest.raises(PayloadDecodeError, match="p3 is a zombie but the game records no outbreak"):
        dice_finish(ended, no_turn)
