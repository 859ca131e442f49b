"""Run one scenario file: a game record (YAML) plus an ``expect`` block.

``expect`` keys (all optional, each checked only if present):

- ``status`` (``ongoing``/``ended``), ``winning_side``, ``winners``, ``turn``, ``active_player``,
  ``arrow_pile``, ``dice``, ``rolls_used``: equal to the summary's value.
- ``players``: ``{id: {life, arrows, alive, max_life, won, eliminated_by, ...}}``, only the
  fields given are compared.
- ``awaiting``: null, or the fields given of ``{player, decision, dice, max_count, rolls_left}``.
- ``events``: trace lines (``trace_line``) that must appear in this order (other lines may
  come between them); ``no_events``: trace lines that must not appear at all; ``counts``:
  ``{trace line: how many times it appears}``.
- ``error``: the record must be refused, with this fragment in the message. For an illegal
  input it must be the last input, the state checks apply to the game just before it, and that
  game must equal a replay of the earlier inputs (an illegal input changes nothing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from services.game.records import (
    IllegalInput,
    RecordError,
    read_record,
    replay_record,
    summarize,
    trace_line,
    write_record,
)
from services.game.rules.dice import Game
from services.game.rules.dice.modules import rules_of

SCENARIOS = Path(__file__).parent

_STATE_KEYS = (
    "status",
    "winning_side",
    "winners",
    "turn",
    "active_player",
    "arrow_pile",
    "dice",
    "rolls_used",
)
_EXPECT_KEYS = {*_STATE_KEYS, "players", "awaiting", "events", "no_events", "counts", "error"}


CARD_SCENARIOS = SCENARIOS / "cards"
"""The card game's rule cases: their own runner (``cards/runner.py``), their own records."""


def scenario_files() -> list[Path]:
    """The dice game's scenarios (the card game's live under ``cards/``)."""
    return sorted(p for p in SCENARIOS.rglob("*.yaml") if CARD_SCENARIOS not in p.parents)


def load(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(document, dict), f"{path.name}: a scenario is a YAML mapping"
    expect = document.pop("expect", None)
    assert isinstance(expect, dict) and expect, f"{path.name}: a scenario needs an `expect` block"
    unknown = set(expect) - _EXPECT_KEYS
    assert not unknown, f"{path.name}: unknown expectation(s) {sorted(unknown)}"
    return document, expect


def run_scenario(path: Path) -> None:
    record_data, expect = load(path)
    error = expect.get("error")
    try:
        record = read_record(record_data)
        game = replay_record(record)
    except IllegalInput as e:
        assert error is not None, f"unexpected refusal: {e}"
        assert error in str(e), f"expected an error containing {error!r}, got {e}"
        assert e.index == len(record.inputs) - 1, f"the illegal input should be the last one: {e}"
        _assert_unchanged(record, e)
        _check_state(e.game, expect)
        return
    except RecordError as e:
        assert error is not None, f"unexpected refusal: {e}"
        assert error in str(e), f"expected an error containing {error!r}, got {e}"
        assert set(expect) == {"error"}, "a refused setup has no state to check"
        return
    assert error is None, f"expected an error containing {error!r}, but the record replayed"
    _check_state(game, expect)
    # every scenario doubles as a round-trip case: read -> replay -> write -> read
    written = write_record(game, options=record.options, meta=record.meta)
    assert read_record(written) == record, "writing the replayed game does not give the record back"


def _assert_unchanged(record: Any, e: IllegalInput) -> None:
    before = Game.start(record.seats, record.position, rules=rules_of(record.ruleset))
    for command in record.inputs[: e.index]:
        before.play(command)
    assert e.game.events == before.events and e.game.state == before.state, "a refused input changed the game"


def _check_state(game: Game, expect: dict[str, Any]) -> None:
    state = summarize(game)
    for key in _STATE_KEYS:
        if key in expect:
            assert state[key] == expect[key], f"{key}: expected {expect[key]!r}, got {state[key]!r}"
    players = {p["id"]: p for p in state["players"]}
    for pid, fields in (expect.get("players") or {}).items():
        assert pid in players, f"no player {pid}"
        actual = {k: players[pid][k] for k in fields}
        assert actual == fields, f"{pid}: expected {fields}, got {actual}"
    if "awaiting" in expect:
        wanted, actual = expect["awaiting"], state["awaiting"]
        if wanted is None or actual is None:
            assert actual == wanted, f"awaiting: expected {wanted}, got {actual}"
        else:
            got = {k: actual[k] for k in wanted}
            assert got == wanted, f"awaiting: expected {wanted}, got {got}"
    lines = [trace_line(e) for e in game.events]
    _check_subsequence(lines, expect.get("events") or [])
    for line, count in (expect.get("counts") or {}).items():
        assert lines.count(line) == count, f"{line!r}: expected {count} time(s), got {lines.count(line)}"
    for line in expect.get("no_events") or []:
        assert line not in lines, f"event {line!r} should not happen; trace:\n" + "\n".join(lines)


def _check_subsequence(lines: list[str], wanted: list[str]) -> None:
    it = iter(lines)
    for n, line in enumerate(wanted):
        if not any(line == actual for actual in it):
            trace = "\n".join(f"  {x}" for x in lines)
            raise AssertionError(f"expected event #{n} {line!r} (in this order) not found; trace:\n{trace}")
