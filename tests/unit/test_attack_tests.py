"""docs/permissions.md's "Attacks of issue 11 and their tests": the issue's seven attacks, each
naming tests that exist (a test renamed or removed fails here, so the list cannot rot)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SECTION = "## Attacks of issue 11 and their tests"
ATTACKS = [
    "a foreign organiser forging a league game",
    "moving in another club's table game",
    "joining as another member",
    "a look-alike token name",
    "the creator of an online game reading roles",
    "a scorekeeper acting outside their table",
    "an unscheduled game claiming a league",
]
"""The issue's list ("Every attack above gets a test"), in its order."""
NAMED = re.compile(r"`(?P<path>tests/[\w/]+\.py)::(?P<function>test_\w+)`")


def attack_rows() -> dict[str, list[tuple[str, str]]]:
    lines = (ROOT / "docs" / "permissions.md").read_text().splitlines()
    start = lines.index(SECTION)
    rows: dict[str, list[tuple[str, str]]] = {}
    for line in lines[start + 1 :]:
        if line.startswith("## "):
            break
        if not line.startswith("| ") or line.startswith(("| attack |", "|---")):
            continue
        attack, _refusal, tests = (cell.strip() for cell in line.strip("|").split("|"))
        rows[attack] = [(m["path"], m["function"]) for m in NAMED.finditer(tests)]
    return rows


def test_every_attack_of_the_issue_has_a_row_naming_tests() -> None:
    rows = attack_rows()
    assert list(rows) == ATTACKS
    assert all(rows[attack] for attack in ATTACKS), rows


def test_every_named_test_exists() -> None:
    for attack, tests in attack_rows().items():
        for path, function in tests:
            source = ROOT / path
            assert source.is_file(), (attack, path)
            defined = {
                node.name
                for node in ast.parse(source.read_text()).body
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            }
            assert function in defined, (attack, path, function)
