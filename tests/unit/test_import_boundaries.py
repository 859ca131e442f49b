"""Layers that import one way. The packages stand in layers (docs/engine.md, "Layers"):
event_store and infra at the bottom, then services/runtime (logs, metrics, the process context,
the projection registry: it finds the services' pieces by path and imports none of them), the
Celery app (services/worker), the game service, league and ratings, the API; bang_cli and ops
compose them all and nothing imports them. A package imports only from layers below its own,
so there is no cycle between them.

League and ratings also read games through the game service's neutral result
(services/game/results/) and never import an engine, so a new game type or expansion plugs in
without touching them. Like eventsourcing's layering, the rules are checked on the source: every
import statement, lazy ones inside functions included."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINES = "services.game.rules"

ENGINE_FREE = (
    "services/league",
    "services/ratings",
    "services/accounts",
    "services/clubs",
    "services/directory",
)
"""Packages that must not import an engine, directly or lazily."""

NEUTRAL = "services/game/results/__init__.py"
NEUTRAL_MAY_IMPORT = ("__future__", "collections", "enum", "msgspec", "typing")
"""The neutral vocabulary is a leaf: the standard library and msgspec, nothing of the server."""


LAYERS: tuple[tuple[str, ...], ...] = (
    ("event_store", "infra"),
    ("services.runtime",),
    ("services.worker",),
    ("services.accounts",),  # who is who: below the games and leagues that will check it
    ("services.clubs",),  # club-scoped roles: on accounts, below the games and leagues
    ("services.game",),
    ("services.league",),
    ("services.ratings", "services.dashboard"),  # the ratings apply a league's read rule
    ("services.directory",),  # the lists: read the games, leagues and clubs below it
    ("services.api",),
)
"""Bottom to top; a package may import its own layer's modules only within itself."""

COMPOSITION_ROOT = ("bang_cli", "ops")
"""The command line and the benchmarks wire everything together: they may import any layer,
and no layer imports them."""

LAYER_OF = {package: rank for rank, packages in enumerate(LAYERS) for package in packages}


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


DICE_ENGINE = "services.game.rules.dice"
THROUGH_THE_INTERFACE = (
    "services/game/application",
    "services/game/timeouts.py",
    "services/game/projections.py",
    "services/game/records/replay.py",
    "services/game/audit/replay.py",
    "services/game/audit/checks.py",
    "services/game/audit/stream.py",
    "services/game/edge/visibility.py",
)
"""Modules that reach the dice engine only through ``services/game/engines`` (``engine_for``):
they play every game with the rules of its recorded ruleset, never the base game by default."""


@pytest.mark.parametrize("where", THROUGH_THE_INTERFACE)
def test_the_service_records_audit_and_visibility_reach_the_engine_only_through_the_interface(
    where: str,
) -> None:
    path = ROOT / where
    files = [path] if path.is_file() else sources(where)
    assert files, f"no sources found at {where}"
    offending = [
        line
        for f in files
        for line in engine_imports(f)
        if line.split(" imports ")[1].startswith(DICE_ENGINE)
    ]
    assert not offending, "an engine imported past services/game/engines:\n" + "\n".join(offending)


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


def package_of(module: str) -> str | None:
    """The layered package ``module`` belongs to (``services.game.edge.http`` → ``services.game``),
    or None for the standard library, third-party code and the bare ``services`` namespace."""
    parts = module.split(".")
    name = ".".join(parts[:2]) if parts[0] == "services" else parts[0]
    return name if name in LAYER_OF or name in COMPOSITION_ROOT else None


def layer_violations(path: Path, source: str | None = None) -> list[str]:
    """``file:line: a imports b (layer i → j)`` for each import in ``path`` of a package in the
    same or a higher layer than its own (other than itself)."""
    rel = path.relative_to(ROOT)
    module = module_name(path)
    own = package_of(module)
    assert own is not None, f"{rel} is in no layer"
    text = path.read_text() if source is None else source
    found: dict[tuple[int, str], str] = {}
    for line, name in imports_of(text, module, is_package=path.name == "__init__.py"):
        target = package_of(name)
        if target is None or target == own or LAYER_OF.get(target, len(LAYERS)) < LAYER_OF[own]:
            continue
        found.setdefault((line, target), f"{rel}:{line}: {own} imports {name} ({target} is not below it)")
    return list(found.values())


def package_imports() -> dict[str, dict[str, str]]:
    """package → {package it imports: the first ``file:line`` that does}, over every layer."""
    graph: dict[str, dict[str, str]] = {}
    for package in (*LAYER_OF, *COMPOSITION_ROOT):
        for path in sources(package.replace(".", "/")):
            module = module_name(path)
            for line, name in imports_of(path.read_text(), module, is_package=path.name == "__init__.py"):
                target = package_of(name)
                # the CLI runs the benchmarks and they mint tokens with its helper: one root, two folders
                if target is not None and target != package and {package, target} != set(COMPOSITION_ROOT):
                    graph.setdefault(package, {}).setdefault(target, f"{path.relative_to(ROOT)}:{line}")
    return graph


def find_cycle(graph: dict[str, dict[str, str]]) -> list[str]:
    """One cycle of ``graph`` as [a, b, …, a], or [] if it has none."""
    state: dict[str, int] = {}  # 1 on the path being walked, 2 finished
    path: list[str] = []

    def walk(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in graph.get(node, {}):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := walk(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (cycle := walk(node)):
            return cycle
    return []


@pytest.mark.parametrize("package", sorted(LAYER_OF))
def test_each_package_imports_only_from_the_layers_below(package: str) -> None:
    files = sources(package.replace(".", "/"))
    assert files, f"no sources found under {package}"
    offending = [line for path in files for line in layer_violations(path)]
    assert not offending, "an import against the layers:\n" + "\n".join(offending)


def test_there_is_no_import_cycle_between_packages() -> None:
    graph = package_imports()
    assert {"services.game", "services.runtime"} <= graph.keys(), "the walk found no imports at all?"
    cycle = find_cycle(graph)
    where = [graph[a][b] for a, b in itertools.pairwise(cycle)]
    assert not cycle, "import cycle " + " -> ".join(cycle) + "\n" + "\n".join(where)


def test_every_service_package_has_a_layer() -> None:
    # a new service package must be placed in a layer, or it would escape the checks
    packages = {p.parent.name for p in (ROOT / "services").glob("*/__init__.py")}
    assert {f"services.{name}" for name in packages} <= LAYER_OF.keys()


@pytest.mark.parametrize(
    ("file", "planted", "expected"),
    [
        # the runtime sits below the services: importing the game's codec there was the old cycle
        (
            "services/runtime/context.py",
            "from services.game.application.codec import GAME_MAPPER\n",
            "services/runtime/context.py:1: services.runtime imports services.game.application.codec",
        ),
        (
            "services/game/edge/gateway.py",
            "def f():\n    from services.league.service import LeagueService\n",
            "services/game/edge/gateway.py:2: services.game imports services.league.service",
        ),
        (
            "services/league/facts.py",
            "from services.ratings import store\n",
            "services/league/facts.py:1: services.league imports services.ratings",
        ),
        (
            "services/api/app.py",
            "import bang_cli.ops\n",
            "services/api/app.py:1: services.api imports bang_cli.ops",
        ),
    ],
)
def test_the_layer_check_names_an_upward_or_sideways_import(file: str, planted: str, expected: str) -> None:
    path = ROOT / file
    assert layer_violations(path) == []
    found = layer_violations(path, planted)
    assert found and found[0].startswith(expected), found


def test_the_cycle_check_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b": ""}, "b": {"c": ""}, "c": {"a": ""}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b": ""}, "b": {}, "c": {"a": ""}}) == []
