"""Reading records: every source form, and errors that say where the fault is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from services.game.records import IllegalInput, MalformedRecord, RecordError, read_record, replay_record
from services.game.rules.dice import (
    ChooseTarget,
    IllegalCommand,
    PlayerId,
    Position,
    Reroll,
    RollDice,
    StopRolling,
)
from services.game.rules.dice import Face as F

SEATS = [
    {"player": "p1", "role": "sheriff", "character": "lucky_duke"},
    {"player": "p2", "role": "renegade", "character": "black_jack"},
    {"player": "p3", "role": "outlaw", "character": "rose_doolan"},
    {"player": "p4", "role": "outlaw", "character": "willy_the_kid"},
]


def record(**fields: Any) -> dict[str, Any]:
    return {"format": "bang-dice-record", "version": 1, "seats": SEATS, **fields}


def test_every_source_form_reads_the_same(tmp_path: Path) -> None:
    data = record(inputs=["p1 roll shoot1 beer arrow dynamite dynamite", "p1 reroll 0 1", "p1 stop"])
    text = json.dumps(data)
    path = tmp_path / "game.json"
    path.write_text(text)
    expected = read_record(data)
    assert read_record(text) == expected
    assert read_record(text.encode()) == expected
    assert read_record(path) == expected
    assert expected.inputs == (
        RollDice(player=PlayerId("p1"), faces=(F.SHOOT1, F.BEER, F.ARROW, F.DYNAMITE, F.DYNAMITE)),
        Reroll(player=PlayerId("p1"), dice=(0, 1)),
        StopRolling(player=PlayerId("p1")),
    )


def test_text_and_object_inputs_are_the_same_commands() -> None:
    text = read_record(record(inputs=["p1 target 3 p4 as shoot2", "p2 target p2"]))
    objects = read_record(
        record(
            inputs=[
                {"type": "ChooseTarget", "player": "p1", "die": 3, "target": "p4", "as_face": "shoot2"},
                {"type": "ChooseTarget", "player": "p2", "target": "p2"},
            ]
        )
    )
    assert text.inputs == objects.inputs
    assert objects.inputs[1] == ChooseTarget(player=PlayerId("p2"), target=PlayerId("p2"))


def test_position_is_read() -> None:
    rec = read_record(
        record(
            position={
                "players": [{"player": "p2", "life": 3, "arrows": 2}],
                "active_player": "p2",
                "turn": 4,
                "dice": ["beer", "beer", "arrow", "shoot1", "gatling"],
                "rolls_used": 2,
            }
        )
    )
    assert isinstance(rec.position, Position)
    assert rec.position.dice == (F.BEER, F.BEER, F.ARROW, F.SHOOT1, F.GATLING)
    assert rec.position.players[0].arrows == 2


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (b"{not json", "record: not valid JSON"),
        (b"[1, 2]", "expected a JSON object"),
        (json.dumps(record(seats=[*SEATS[:3], {"player": "p4", "role": "outlaw"}])), "`$.seats[3]`"),
        (json.dumps(record(inputs=[3])), "at `$.inputs[0]`"),
        (json.dumps(record(inputs=["p1  roll beer beer beer beer beer"])), "single spaces"),
        (json.dumps(record(inputs=[{"type": "Reroll", "player": "p1", "dice": [-1]}])), "cannot be negative"),
        (json.dumps(record(inputs=[{"type": "Reroll", "player": "p1", "dice": []}])), "names no die"),
        (json.dumps(record(inputs=[{"player": "p1"}])), "input 0: `type` must be one of RollDice"),
        (
            json.dumps(record(position={"players": [{"player": "p9", "life": 3}]})),
            "setup: the position names p9",
        ),
        (json.dumps(record(inputs=[{"type": "Reroll", "player": "p1", "dice": "0 1"}])), "$.inputs[0].dice"),
    ],
)
def test_malformed_records_say_where(source: bytes | str, message: str) -> None:
    with pytest.raises(MalformedRecord) as e:
        read_record(source)
    assert message in str(e.value)


def test_missing_file_is_a_record_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "missing.json")


def test_an_illegal_input_names_its_index_and_keeps_the_game_before_it() -> None:
    rec = read_record(
        record(inputs=["p1 roll shoot1 beer arrow dynamite dynamite", "p1 stop", "p1 target 0 p3", "p1 stop"])
    )
    with pytest.raises(IllegalInput) as e:
        replay_record(rec)
    err = e.value
    assert err.index == 2
    assert str(err) == "input 2 ('p1 target 0 p3'): p3 is at distance 2; a shoot1 reaches distance 1"
    assert isinstance(err.cause, IllegalCommand)
    assert err.command == rec.inputs[2]
    assert err.game.awaiting is not None and err.game.awaiting.decision == "shot_target"
