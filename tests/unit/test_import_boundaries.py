"""Layers that import one way: league and ratings read games through the game service's neutral
result (services/game/results.py, result_decoder.py) and never import an engine, so a new game
type or expansion plugs in without touching them. Like eventsourcing's layering, the rule is
checked on the source: every import statement, lazy ones inside functions included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINES = "services.game.rules"

ENGINE_FREE = ("services/league", "services/ratings")
"""Packages that must not import an engine, directly or lazily."""

NEUTRAL = "services/game/results.py"
NEUTRAL_MAY_IMPORT = ("__future__", "collections", "enum", "msgspec", "typing")
"""The neutral vocabulary is a leaf: the standard library and msgspec, nothing of the server."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str, *, is_package: bool = False) -> list[tuple[int, str]]:
    """(line, imported module) for every import in ``source``; relative imports resolved
    against ``module``. ``importlib.import_module("…")``/``__import__("…")`` with a literal
    count too, so a lazy import cannot slip through as a string."""
    found: list[tuple[int, str]] = []
    package = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            # ``from services.game import rules`` imports the engine package too
            found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value))
    return found


def is_engine(name: str) -> bool:
    return name == ENGINES or name.startswith(ENGINES + ".")


def engine_imports(path: Path, source: str | None = None) -> list[str]:
    """``file:line imports module`` for each engine import in ``path`` (or in ``source``, read as
    if it were that file)."""
    rel = path.relative_to(ROOT)
    text = path.read_text() if source is None else source
    first: dict[int, str] = {}  # one line per statement: ``from x import a, b`` names x once
    for line, name in imports_of(text, module_name(path), is_package=path.name == "__init__.py"):
        if is_engine(name):
            first.setdefault(line, name)
    return [f"{rel}:{line} imports {name}" for line, name in first.items()]


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", ENGINE_FREE)
def test_league_and_ratings_never_import_an_engine(package: str) -> None:
    files = sources(package)
    assert len(files) > 5, f"no sources found under {package}"
    offending = [line for path in files for line in engine_imports(path)]
    assert not offending, "an engine imported where only the neutral result may be:\n" + "\n".join(offending)


def test_the_neutral_result_imports_only_the_standard_library_and_msgspec() -> None:
    path = ROOT / NEUTRAL
    names = [name for _, name in imports_of(path.read_text(), module_name(path))]
    assert names, "the neutral module imports nothing at all?"
    stray = sorted({n for n in names if n.split(".")[0] not in NEUTRAL_MAY_IMPORT})
    assert not stray, f"{NEUTRAL} must stay engine- and service-free, but imports {stray}"


@pytest.mark.parametrize(
    ("source", "module", "expected"),
    [
        ("from services.game.rules.dice import Role\n", "services.league.points", "services.game.rules.dice"),
        ("import services.game.rules.dice.events\n", "services.ratings.x", "services.game.rules.dice.events"),
        ("from services.game import rules\n", "services.league.x", "services.game.rules"),
        ("def f():\n    from ...game.rules import dice\n", "services.league.sub.x", "services.game.rules"),
        (
            "import importlib\nm = importlib.import_module('services.game.rules.dice')\n",
            "services.ratings.x",
            "services.game.rules.dice",
        ),
    ],
)
def test_the_check_sees_every_form_of_import(source: str, module: str, expected: str) -> None:
    names = [name for _, name in imports_of(source, module)]
    assert expected in names
    assert any(is_engine(n) for n in names)


def test_the_check_names_the_file_and_line() -> None:
    path = ROOT / "services" / "league" / "points.py"
    assert engine_imports(path) == []
    planted = "from __future__ import annotations\n\nfrom services.game.rules.dice import Role\n"
    assert engine_imports(path, planted)[0] == "services/league/points.py:3 imports services.game.rules.dice"


def test_the_neutral_role_table_matches_the_dice_engine() -> None:
    # the neutral table is a copy (the engine must not depend on the service around it); seeded
    # draws over it (synthetic leagues) rely on the very same order
    from services.game.results import ROLES_BY_PLAYER_COUNT, Role, Side
    from services.game.rules.dice import ROLES_BY_PLAYER_COUNT as ENGINE_ROLES
    from services.game.rules.dice import Role as EngineRole
    from services.game.rules.dice import Side as EngineSide

    assert {n: [r.value for r in roles] for n, roles in ROLES_BY_PLAYER_COUNT.items()} == {
        n: [r.value for r in roles] for n, roles in ENGINE_ROLES.items()
    }
    assert [r.value for r in Role] == [r.value for r in EngineRole]
    assert {s.value for s in EngineSide} <= {s.value for s in Side}


def test_the_neutral_rules_words_match_the_recorded_ruleset() -> None:
    # a result names its rules in ``Ruleset.text`` form; the base game's must be the default
    from services.game.results import BASE_RULESET, GameType
    from services.game.rules.ruleset import BASE_DICE
    from services.game.rules.ruleset import GameType as RulesetGameType

    assert BASE_DICE.text == BASE_RULESET
    assert {t.value for t in RulesetGameType} <= {t.value for t in GameType}
