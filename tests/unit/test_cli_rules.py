"""`bang-league rules run` and `rules position`: the sub-app alone (bang_cli.main also mounts
other areas' commands)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from bang_cli.rules import ERROR_EXIT, app

SEATS = [
    {"player": "p1", "role": "sheriff", "character": "paul_regret"},
    {"player": "p2", "role": "renegade", "character": "willy_the_kid"},
    {"player": "p3", "role": "outlaw", "character": "black_jack"},
    {"player": "p4", "role": "outlaw", "character": "lucky_duke"},
]
SEED_EXAMPLE = {
    "format": "bang-dice-record",
    "version": 1,
    "seats": SEATS,
    "position": {
        "players": [
            {"player": "p1", "life": 6, "arrows": 1},
            {"player": "p2", "life": 8, "arrows": 3},
            {"player": "p3", "life": 8, "arrows": 2},
            {"player": "p4", "life": 8, "arrows": 2},
        ],
        "active_player": "p1",
    },
    "inputs": ["p1 roll arrow arrow dynamite shoot1 beer"],
}

FIRST_ROLL = "p1 roll arrow arrow dynamite shoot1 beer"

runner = CliRunner()


def write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data))
    return path


def test_json_state(tmp_path: Path) -> None:
    result = runner.invoke(app, ["run", str(write(tmp_path, SEED_EXAMPLE)), "--json"])
    assert result.exit_code == 0, result.output
    state = json.loads(result.stdout)
    assert state["status"] == "ongoing"
    assert state["winners"] == [] and state["winning_side"] is None
    assert state["arrow_pile"] == 8
    assert state["active_player"] == "p1"
    assert state["turn"] == 1
    assert state["awaiting"] == {
        "player": "p1",
        "decision": "reroll_or_stop",
        "dice": [0, 1, 3, 4],
        "max_count": 0,
        "rolls_left": 2,
    }
    p1 = state["players"][0]
    assert {k: p1[k] for k in ("id", "role", "character", "life", "max_life", "arrows", "alive")} == {
        "id": "p1",
        "role": "sheriff",
        "character": "paul_regret",
        "life": 4,
        "max_life": 11,
        "arrows": 1,
        "alive": True,
    }


def test_json_state_of_an_ended_game(tmp_path: Path) -> None:
    data = {
        **SEED_EXAMPLE,
        "position": {"players": [{"player": "p1", "life": 1}]},
        "inputs": ["p1 roll dynamite dynamite dynamite beer beer"],
    }
    result = runner.invoke(app, ["run", str(write(tmp_path, data)), "--json"])
    assert result.exit_code == 0, result.output
    state = json.loads(result.stdout)
    assert state["status"] == "ended"
    assert state["winning_side"] == "outlaws"
    assert state["winners"] == ["p3", "p4"]
    assert state["awaiting"] is None


def test_trace_prints_each_event(tmp_path: Path) -> None:
    result = runner.invoke(app, ["run", str(write(tmp_path, SEED_EXAMPLE)), "--trace"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("[0] game started: p1 sheriff paul_regret")
    assert "[5] p1 lost 2 life (indian_attack)" in lines
    assert "[10] p1 took an arrow (roll)" in lines


def test_trace_with_json_keeps_stdout_json(tmp_path: Path) -> None:
    result = runner.invoke(app, ["run", str(write(tmp_path, SEED_EXAMPLE)), "--json", "--trace"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["arrow_pile"] == 8
    assert "[4] Indians attack" in result.stderr


def test_table(tmp_path: Path) -> None:
    result = runner.invoke(app, ["run", str(write(tmp_path, SEED_EXAMPLE))])
    assert result.exit_code == 0, result.output
    assert "arrow pile: 8" in result.stdout
    assert "paul_regret" in result.stdout and "4/11" in result.stdout
    assert "reroll_or_stop" in result.stdout


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        ([FIRST_ROLL, "p1 reroll 0 7"], "input 1 ('p1 reroll 0 7'): there is no die 8; dice are 1 to 5"),
        ([FIRST_ROLL, "p1 reroll 2"], "input 1 ('p1 reroll 2'): die 3 shows dynamite and cannot be rerolled"),
        (
            ["p1 roll arrow arrow bear shoot1 beer"],
            "input 0 ('p1 roll arrow arrow bear shoot1 beer'): 'bear'",
        ),
    ],
)
def test_an_illegal_input_exits_2_naming_it(tmp_path: Path, inputs: list[str], message: str) -> None:
    result = runner.invoke(app, ["run", str(write(tmp_path, {**SEED_EXAMPLE, "inputs": inputs})), "--json"])
    assert result.exit_code == ERROR_EXIT == 2
    assert message in result.stderr
    assert result.stdout == ""


def test_a_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["run", str(tmp_path / "nope.json")])
    assert result.exit_code == 2


X4 = Path(__file__).parents[1] / "scenarios" / "undead" / "ua1_x4_dynamite_token_and_shoot1_token.yaml"


def _record(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(path.read_text())
    data.pop("expect", None)
    return data


def test_position_from_any_input_ends_where_the_record_ends(tmp_path: Path) -> None:
    """`rules position FILE --at N`: the state after N inputs as the position, the rest as its
    inputs; run, it ends where the whole record ends (duels, wound tokens, Rage draws of UA1+UA2)."""
    original = write(tmp_path, _record(X4))
    whole = runner.invoke(app, ["run", str(original), "--json"])
    assert whole.exit_code == 0, whole.output
    inputs = _record(X4)["inputs"]
    for at in range(len(inputs) + 1):
        result = runner.invoke(app, ["position", str(original), "--at", str(at)])
        assert result.exit_code == 0, result.output
        written = json.loads(result.stdout)
        assert written["inputs"] == inputs[at:]
        resumed = tmp_path / f"at{at}.json"
        resumed.write_text(result.stdout)
        after = runner.invoke(app, ["run", str(resumed), "--json"])
        assert after.exit_code == 0, after.output
        end, expected = json.loads(after.stdout), json.loads(whole.stdout)
        end.pop("events"), expected.pop("events")  # a position record holds fewer events
        assert end == expected


def test_position_out_of_range_or_of_a_finished_game_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, SEED_EXAMPLE)
    result = runner.invoke(app, ["position", str(path), "--at", "2"])
    assert result.exit_code == ERROR_EXIT
    assert "record: it has 1 inputs: a position is from input 0 to 1" in result.stderr
    ended = _record(X4.parent / "ua4_the_zombies_win_when_every_survivor_falls.yaml")
    path = write(tmp_path, ended)
    result = runner.invoke(app, ["position", str(path), "--at", str(len(ended["inputs"]))])
    assert result.exit_code == ERROR_EXIT
    assert "the game is over: a finished game is not a position to play on" in result.stderr
