"""`bang-league bench NAME [--json]`: run the benchmark `ops/bench/NAME.py`.

Every benchmark module exposes `run() -> dict` (the figures, JSON-ready, each measured next to
an anchor from the same run) and `render(result) -> rich renderable` for a terminal reader. A
`run(seconds=…)` takes `--seconds` (`soak`, `health-under-load`), a `run(game=…)` takes
`--game` (`engine`: dice or cards); a result with `"ok": false` exits 1.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil

import typer
from rich.console import Console

import ops.bench


def available() -> list[str]:
    """The benchmarks' names: their modules', with ``-`` for ``_`` (``health_under_load.py``:
    ``health-under-load``)."""
    modules = pkgutil.iter_modules(ops.bench.__path__)
    return sorted(m.name.replace("_", "-") for m in modules if not m.name.startswith("_"))


def bench(
    name: str = typer.Argument(..., help="Benchmark name: one of the modules in ops/bench/."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as one JSON object."),
    seconds: float | None = typer.Option(
        None,
        "--seconds",
        min=1.0,
        help="How long the load runs, for benchmarks that take it (soak, health-under-load).",
    ),
    game: str | None = typer.Option(
        None, "--game", help="Game type, for benchmarks that take it (engine): dice or cards."
    ),
) -> None:
    if name not in available():
        raise typer.BadParameter(f"unknown benchmark {name!r}; available: {', '.join(available())}")
    module = importlib.import_module(f"ops.bench.{name.replace('-', '_')}")
    options: dict[str, object] = {} if seconds is None else {"seconds": seconds}
    if game is not None:
        options["game"] = game
    parameters = inspect.signature(module.run).parameters
    for option in options:
        if option not in parameters:
            raise typer.BadParameter(f"benchmark {name!r} does not take --{option}")
    if game not in (None, "dice", "cards"):
        raise typer.BadParameter(f"unknown game type {game!r}; choose dice or cards", param_hint="--game")
    result = module.run(**options)
    if as_json:
        typer.echo(json.dumps(result, indent=2, sort_keys=True))
    else:
        Console().print(module.render(result))
    if result.get("ok") is False:  # a benchmark that checks correctness (soak) failed its checks
        raise typer.Exit(1)
