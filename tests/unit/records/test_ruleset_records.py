"""Record format 2: ``game_type`` and ``ruleset`` (and ``options.fairness`` for seeded games).
Version 1 still reads, as the base game; what the rules refuse is named."""

from __future__ import annotations

import json
from typing import Any

import pytest

from services.game.fairness.versions import Fairness
from services.game.records import (
    DiceSource,
    MalformedRecord,
    RecordOptions,
    read_record,
    record_to_object,
    write_record,
)
from services.game.rules.ruleset import BASE_DICE, ruleset_of
from tests.unit.records.test_schema import VALIDATOR
from tests.unit.records.test_schema import _is_valid as valid_by_schema

SEATS = [
    {"player": "p1", "role": "sheriff", "character": "lucky_duke"},
    {"player": "p2", "role": "renegade", "character": "black_jack"},
    {"player": "p3", "role": "outlaw", "character": "rose_doolan"},
    {"player": "p4", "role": "outlaw", "character": "willy_the_kid"},
]
INPUTS = ["p1 roll shoot1 beer arrow gatling dynamite", "p1 stop"]


def v1(**extra: Any) -> dict[str, Any]:
    return {"format": "bang-dice-record", "version": 1, "seats": SEATS, "inputs": INPUTS, **extra}


def v2(modules: list[str], **extra: Any) -> dict[str, Any]:
    return {**v1(), "version": 2, "game_type": "dice", "ruleset": {"modules": modules}, **extra}


def test_a_version_1_record_reads_as_the_base_game_and_is_written_as_version_2() -> None:
    record = read_record(v1())
    assert record.ruleset == BASE_DICE
    written = json.loads(write_record(record))
    assert written["version"] == 2
    assert written["game_type"] == "dice"
    assert written["ruleset"] == {"modules": [], "data": {"characters": "dice-base-1", "dice": "dice-base-1"}}
    assert list(written)[:4] == ["format", "version", "game_type", "ruleset"]
    assert read_record(written) == record
    assert valid_by_schema(v1()) and valid_by_schema(written)


def test_a_version_2_record_round_trips_its_ruleset_and_fairness() -> None:
    record = read_record(v2([]))
    seeded = RecordOptions(
        dice=DiceSource.SEEDED, seed_commitment="ab" * 32, seed="cd" * 32, fairness=Fairness()
    )
    with_fairness = write_record(record, options=seeded)
    obj = json.loads(with_fairness)
    assert obj["options"]["fairness"] == {"deal": "deal-1", "dice": "dice-1"}
    assert not list(VALIDATOR.iter_errors(obj))
    again = read_record(with_fairness)
    assert again.options.fairness == Fairness(deal="deal-1", dice="dice-1")
    assert again.ruleset == BASE_DICE
    assert json.loads(json.dumps(record_to_object(again))) == obj


def test_a_version_2_record_with_modules_reads_its_ruleset() -> None:
    record = read_record(v2(["OS2", "OS1"]))
    assert record.ruleset == ruleset_of(["OS1", "OS2"])
    assert json.loads(write_record(record))["ruleset"]["modules"] == ["OS1", "OS2"]


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (v2(["UA1"]), "record: `$.ruleset`: module UA1 needs UA2"),
        (v2(["OS5"]), "record: `$.ruleset`: the Ghost (OS5) needs 5 or more players"),
        (v2(["OS9"]), "record: `$.ruleset`: unknown module 'OS9'"),
        (v2(["OS1", "OS1"]), "record: `$.ruleset`: module OS1 is named twice"),
        ({**v2([]), "game_type": "cards"}, "record: `$.game_type` 'cards' is a card game, recorded as"),
        ({**v2([]), "game_type": "chess"}, "record: `$.ruleset`: unknown game type 'chess'"),
        (
            v2(["UA2"], ruleset={"modules": ["UA2"], "data": {**BASE_DICE.data, "rage-deck": "rage-0"}}),
            "record: `$.ruleset`: data table 'rage-deck' has no version 'rage-0' (known: rage-1)",
        ),
        ({k: v for k, v in v2([]).items() if k != "game_type"}, "record: `$.game_type` is required"),
        ({k: v for k, v in v2([]).items() if k != "ruleset"}, "record: `$.ruleset` is required"),
        (v1(ruleset={"modules": []}), "record: `$.ruleset` is a format version 2 field"),
        (v1(game_type="dice"), "record: `$.game_type` is a format version 2 field"),
        (
            v2([], options={"dice": "table", "fairness": {"deal": "deal-1", "dice": "dice-1"}}),
            "record: `$.options.fairness` names seed derivations: only for seeded dice",
        ),
        (
            v2([], options={"dice": "seeded", "fairness": {"deal": "deal-1", "dice": "dice-7"}}),
            "record: `$.options.fairness`: unknown dice derivation 'dice-7'",
        ),
        ({**v1(), "version": 3}, "record: format version 3 is not supported (this reader reads 1 and 2)"),
    ],
)
def test_what_the_rules_refuse_is_named(record: dict[str, Any], message: str) -> None:
    with pytest.raises(MalformedRecord) as refused:
        read_record(record)
    assert str(refused.value).startswith(message), str(refused.value)
