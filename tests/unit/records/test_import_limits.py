"""An import's bounds (``services/game/records/limits.py``) on the command line: ``bang-league
import`` refuses a record over the byte bound naming it, before any database is opened; the
inputs and events bounds are the gateway's, tested over HTTP (tests/integration/api/
test_import_bounds.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bang_cli import ops
from services.game.records.errors import RecordTooLarge, RecordTooLong
from services.game.records.limits import (
    MAX_IMPORT_BYTES,
    MAX_IMPORT_EVENTS,
    MAX_IMPORT_INPUTS,
    check_bytes,
    check_events,
    check_inputs,
    record_bytes,
)


def test_each_bound_lets_its_value_through_and_names_what_is_past_it() -> None:
    check_bytes(MAX_IMPORT_BYTES)
    check_inputs(MAX_IMPORT_INPUTS)
    check_events(MAX_IMPORT_EVENTS)
    with pytest.raises(RecordTooLarge, match=r"70,000 bytes .*at most 65,536 bytes"):
        check_bytes(70_000)
    with pytest.raises(RecordTooLong, match=r"2,001 inputs; .*at most 2,000 inputs"):
        check_inputs(MAX_IMPORT_INPUTS + 1)
    with pytest.raises(RecordTooLong, match=r"6,001 events; .*at most 6,000 events"):
        check_events(MAX_IMPORT_EVENTS + 1)


def test_whitespace_does_not_count() -> None:
    record = {"format": "bang-dice-record", "inputs": ["p1 stop"] * 3}
    assert record_bytes(record) == len(json.dumps(record, separators=(",", ":")))


def test_the_cli_import_refuses_a_record_over_the_byte_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_database(*_: object) -> None:
        raise AssertionError("the refusal comes before any database is opened")

    monkeypatch.setattr(ops, "_run", no_database)
    record = {"format": "bang-dice-record", "version": 1, "inputs": ["p1 stop"] * 8_000}
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(ops.app, ["import", str(path)])
    assert result.exit_code == 1, result.output
    said = " ".join(result.output.split())  # rich wraps the line at the terminal's width
    assert f"at most {MAX_IMPORT_BYTES:,} bytes" in said
