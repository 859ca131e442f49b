"""The card engine is pure and stands alone: it imports the standard library's pure modules,
msgspec and itself, never the dice engine, the service around it, a clock or randomness."""

from __future__ import annotations

from pathlib import Path

from tests.unit.test_import_boundaries import ROOT, imports_of, layer_violations, module_name

PACKAGE = ROOT / "services" / "game" / "rules" / "cards"
ALLOWED = ("__future__", "collections", "copy", "dataclasses", "enum", "itertools", "msgspec", "typing")


def _imports() -> list[tuple[Path, int, str]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for line, name in imports_of(
            path.read_text(), module_name(path), is_package=path.name == "__init__.py"
        ):
            found.append((path, line, name))
    return found


def test_the_card_engine_imports_only_pure_modules_and_itself() -> None:
    found = _imports()
    assert len(found) > 30
    stray = [
        f"{p.relative_to(ROOT)}:{line} imports {name}"
        for p, line, name in found
        if name.split(".")[0] not in ALLOWED and not name.startswith("services.game.rules.cards")
    ]
    assert not stray, "\n".join(stray)


def test_the_card_engine_obeys_the_layers() -> None:
    assert [v for path in sorted(PACKAGE.rglob("*.py")) for v in layer_violations(path)] == []


def test_no_clock_and_no_randomness_in_the_card_engine() -> None:
    names = {name.split(".")[0] for _, _, name in _imports()}
    assert not names & {"random", "time", "datetime", "secrets", "os", "uuid"}
