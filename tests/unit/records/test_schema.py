"""docs/game-records.schema.json and the reader agree: what one accepts the other accepts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from services.game.records import RecordError, read_record, record_to_object, replay_record, write_record
from tests.scenarios.runner import SCENARIOS, load, scenario_files
from tests.unit.records.test_roundtrip import play_random

SCHEMA = json.loads((Path(__file__).parents[3] / "docs" / "game-records.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def test_the_schema_is_a_valid_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def _is_valid(obj: Any) -> bool:
    return not list(VALIDATOR.iter_errors(obj))


@pytest.mark.parametrize("path", scenario_files(), ids=lambda p: str(p.relative_to(SCENARIOS)))
def test_scenario_records_and_the_schema_agree(path: Path) -> None:
    data, _ = load(path)
    data = json.loads(json.dumps(data))  # YAML's types, as JSON would have them
    try:
        read_record(data)
    except RecordError as e:
        # the setup's rules (roles by player count, life limits) are the engine's, not the schema's
        if not str(e).startswith("setup:"):
            assert not _is_valid(data), f"the reader refuses ({e}) what the schema accepts"
        return
    errors = [f"{list(err.absolute_path)}: {err.message}" for err in VALIDATOR.iter_errors(data)]
    assert not errors, errors


@pytest.mark.parametrize("structured", [False, True])
def test_written_records_are_valid(structured: bool) -> None:
    for seed in range(4):
        live, _ = play_random(3 + seed, 300 + seed)
        assert _is_valid(json.loads(write_record(live, structured=structured)))


@pytest.mark.parametrize(
    "bad_input",
    [
        "p1 roll",
        "p1 roll arrow bear",
        "p1 reroll x",
        "p1 target",
        "p1 double 1",
        "p1 jump",
        "p1  stop",
        {"type": "Reroll", "player": "p1"},
        {"type": "Reroll", "player": "p1", "dice": [0], "extra": 1},
        {"type": "DiceRolled", "player": "p1", "faces": ["beer"]},
        {"type": "RollDice", "player": "p 1", "faces": ["beer"]},
    ],
)
def test_bad_inputs_are_refused_by_both(bad_input: Any) -> None:
    live, _ = play_random(4, 1)
    data = record_to_object(read_record(write_record(live)))
    data["inputs"] = [bad_input]
    assert not _is_valid(data)
    with pytest.raises(RecordError):
        replay_record(read_record(data))
