"""The published baseline: side win rates of heuristic bots per Old Saloon module set, 4–8 players.

    .venv/bin/python -m ops.baseline --games 200 --seed 20261123 --out docs/baselines.md

plays ``--games`` games (``services.game.simulation.simulate``, heuristic bots in every seat)
for every subset of the Old Saloon modules this server implements (the empty set is the base
game) at every table size from 4 to 8 the ruleset allows (``ruleset.refusal``: the Ghost needs
5), and writes a Markdown page: each side's win rate with its 95% Wilson score interval, the
game counts, the seed, the command that reproduces it and the date. One process, one core.

It also checks that every side won at least once in every module set and size, and lists any
side that did not (exit status 1 then, so a run that shows a side that cannot win fails).

    .venv/bin/python -m ops.baseline --undead --games 200 --seed 20261123 --out docs/baselines-undead.md

(``--undead``) does the same for Undead or Alive: every set of the Undead or Alive modules this
server implements that the rules allow (UA1 needs UA2), alone and with every Old Saloon module
it implements, at every table size from 3 to 8 the ruleset allows (UA4 and OS3 need 4 players,
OS5 needs 5). With UA4 the zombies' sides (``zombies``, ``survivors``) and the outbreak rate
(games whose ``GameEnded`` names an ``outbreak_turn``) join the table. A 3-player game's sides
are its roles (``deputy`` is shown under the law, ``outlaw`` under the outlaws, ``none``: the
last two fell at once); ``none`` and the zombies' sides may rightly never win in a cell, so only
the base sides count for the exit status.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import math
import platform
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist

from services.game.bots import HeuristicBot
from services.game.engines import implemented_modules
from services.game.rules.ruleset import MODULES, ModuleId, Ruleset, refusal, ruleset_of
from services.game.simulation import SimulationReport, simulate

SIZES = range(4, 9)
UNDEAD_SIZES = range(3, 9)
SERIES_ONLY = frozenset({ModuleId.UA5})
"""Modules that change only the games after the first of a series (UA5: a designated Sheriff's
+1 life): a single bot game with them is the very game without them, so they get no cells."""
CONFIDENCE = 0.95
_Z = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)


def wilson(wins: int, games: int, z: float = _Z) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / games`` (sound near 0 and 1, where the
    normal approximation is not: a side that rarely wins gets an interval above 0)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def module_sets(modules: Sequence[ModuleId]) -> Iterator[tuple[ModuleId, ...]]:
    """Every subset of ``modules``, the empty set first, by size then name."""
    for k in range(len(modules) + 1):
        yield from itertools.combinations(sorted(modules), k)


@dataclass(slots=True)
class Cell:
    ruleset: Ruleset
    players: int
    report: SimulationReport


def undead_sets(modules: Sequence[ModuleId]) -> list[tuple[ModuleId, ...]]:
    """Every set of the Undead or Alive modules among ``modules`` that the rules allow at some
    table size (UA1 needs UA2), alone then with all of ``modules``' Old Saloon modules."""
    undead = sorted(m for m in modules if m.startswith("UA") and m not in SERIES_ONLY)
    saloon = tuple(sorted(m for m in modules if m.startswith("OS")))
    allowed = [
        s for s in module_sets(undead) if s and any(refusal(ruleset_of(s), n) is None for n in UNDEAD_SIZES)
    ]
    with_saloon = [tuple(sorted((*saloon, *s))) for s in allowed] if saloon else []
    return [*allowed, *with_saloon]


def run(
    games: int,
    seed: int,
    modules: Sequence[ModuleId],
    echo: bool = True,
    *,
    sets: Sequence[tuple[ModuleId, ...]] | None = None,
    sizes: range = SIZES,
) -> list[Cell]:
    """Every module set (every subset of ``modules``, or ``sets``) at every size of ``sizes``
    the rules allow."""
    cells: list[Cell] = []
    for subset in module_sets(modules) if sets is None else sets:
        ruleset = ruleset_of(subset)
        for players in sizes:
            if refusal(ruleset, players) is not None:
                continue
            report = simulate(games, players, seed, HeuristicBot, bot_name="heuristic", ruleset=ruleset)
            cells.append(Cell(ruleset, players, report))
            if echo:
                wins = " ".join(f"{side}={n}" for side, n in sorted(report.wins.items()))
                print(f"{ruleset.text:<22} {players}p  {wins}  ({report.seconds:.1f} s)", file=sys.stderr)
    return cells


def zero_wins(cells: Sequence[Cell]) -> list[str]:
    """Every (module set, size, side) whose side never won."""
    return [
        f"{cell.ruleset.text}, {cell.players} players: {side}"
        for cell in cells
        for side, n in sorted(cell.report.wins.items())
        if n == 0
    ]


UNDEAD_COLUMNS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("law / deputy", ("law", "deputy")),
    ("outlaws / outlaw", ("outlaws", "outlaw")),
    ("renegade", ("renegade",)),
    ("zombies", ("zombies",)),
    ("survivors", ("survivors",)),
)
"""The Undead or Alive page's side columns: a 3-player game's roles beside the sides they are."""
BASE_SIDES = frozenset({"law", "deputy", "outlaws", "outlaw", "renegade"})


def undead_zero_wins(cells: Sequence[Cell], zombies: bool = False) -> list[str]:
    """Every (module set, size, base side) whose side never won, in the cells without UA4
    (``zombies``: in those with UA4). ``none`` and the zombies' sides can rightly never win in a
    cell; with UA4 a base side wins only a game without an outbreak (after one, the living
    Renegade is the Zombie Master, and the law and the outlaws are survivors), so a base side
    that never won there is a finding about the module, not a failed run."""
    chosen = [c for c in cells if c.ruleset.has(ModuleId.UA4) == zombies]
    return [z for z in zero_wins(chosen) if z.rsplit(": ", 1)[1] in BASE_SIDES]


def render_undead(
    cells: Sequence[Cell], games: int, seed: int, modules: Sequence[ModuleId], seconds: float
) -> str:
    today = datetime.date.today().isoformat()
    undead = [m for m in modules if m.startswith("UA") and m not in SERIES_ONLY]
    saloon = [m for m in modules if m.startswith("OS")]
    series = [m for m in modules if m in SERIES_ONLY]
    missing = [m for m in MODULES if m.startswith("UA") and m not in modules]
    total = sum(c.report.finished for c in cells)
    names = ", ".join(f"{m} ({MODULES[m].name})" for m in undead) or "none"
    lines = [
        "# Baselines: Undead or Alive — heuristic bots",
        "",
        "How often each side wins with the Undead or Alive modules this server plays, every allowed "
        "set of them alone and with Old Saloon, every seat the heuristic bot (`services/game/bots`), "
        "at every table size the rules allow. Kept apart from `docs/baselines.md` (the Old Saloon "
        "subsets); written by `ops.baseline --undead`.",
        "",
        f"- Date: {today}. Seed: `{seed}`. Games per module set and table size: {games} "
        f"({total:,} games in all, {seconds:,.0f} s of one core on {platform.python_implementation()} "
        f"{platform.python_version()}).",
        f"- Undead or Alive modules included (every set the rules allow: UA1 needs UA2): {names}; "
        "each set alone and with "
        + (" + ".join(saloon) + " (every Old Saloon module this server plays)" if saloon else "no Old Saloon")
        + ".",
    ]
    if series:
        lines.append(
            f"- Not in a set of its own: {', '.join(series)} ({', '.join(MODULES[m].name for m in series)}), "
            "which changes only the games after the first of a series (the designated Sheriff's +1 "
            "life): a single game with it is the very same game as without it (same seed, same result)."
        )
    if missing:
        absent = ", ".join(missing)
        lines.append(f"- Not included (not implemented by this server when the baseline was run): {absent}.")
    lines += [
        "- Reproduce: `.venv/bin/python -m ops.baseline --undead "
        f"--games {games} --seed {seed} --out docs/baselines-undead.md`; one cell alone: "
        f"`bang-league simulate -n {games} -p <players> --seed {seed} --modules <modules> --json` "
        "(the same games).",
        f"- Each rate is wins / games with its {CONFIDENCE:.0%} Wilson score interval. Three players: "
        "the sides are the three roles (the deputy under the law, the outlaw under the outlaws; "
        "`none`: the last two fell at once). With UA4, `zombies` and `survivors` win only after an "
        "outbreak (the Zombie Master shares the zombies' win), and `outbreaks` is the share of games "
        "in which one began.",
        "",
    ]
    zeros = undead_zero_wins(cells)
    lines.append(
        "**Every side can win:** without UA4, the law, the outlaws and the renegade each won at least "
        "once in every module set and table size below."
        if not zeros
        else "**Sides that never won in this run:** " + "; ".join(zeros) + "."
    )
    zombie_zeros = undead_zero_wins(cells, zombies=True)
    if zombie_zeros:
        lines += [
            "",
            "**With UA4, base sides that never won** (a base side wins only a game without an outbreak; "
            "after one the living Renegade is the Zombie Master and shares the zombies' win, the law "
            "and the outlaws are survivors): " + "; ".join(zombie_zeros) + ".",
        ]
    lines.append("")
    by_set: dict[str, list[Cell]] = {}
    for cell in cells:
        by_set.setdefault(cell.ruleset.text, []).append(cell)
    for text, group in by_set.items():
        title = " + ".join(group[0].ruleset.modules)
        zombies = any(c.report.outbreaks is not None for c in group)
        columns = [c for c in UNDEAD_COLUMNS if zombies or c[0] not in ("zombies", "survivors")]
        head = ["players", "games", *(name for name, _ in columns), "none"]
        head += ["outbreaks"] if zombies else []
        lines += [f"## {title} (`{text}`)", "", "| " + " | ".join([*head, "avg turns"]) + " |"]
        aligns = ["---:", "---:", *("---" for _ in columns), "---:", *(["---"] if zombies else []), "---:"]
        lines.append("|" + "|".join(aligns) + "|")
        for cell in group:
            r = cell.report
            row = [str(cell.players), str(r.finished)]
            for _, sides in columns:
                n = sum(r.wins.get(side, 0) for side in sides)
                low, high = wilson(n, r.finished)
                row.append(f"{n / r.finished:.1%} [{low:.1%}, {high:.1%}]")
            row.append(str(r.wins.get("none", 0)))
            if zombies:
                n = r.outbreaks or 0
                low, high = wilson(n, r.finished)
                row.append(f"{n / r.finished:.1%} [{low:.1%}, {high:.1%}]")
            row.append(f"{r.avg_turns:.1f}")
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    return "\n".join(lines)


def render(cells: Sequence[Cell], games: int, seed: int, modules: Sequence[ModuleId], seconds: float) -> str:
    today = datetime.date.today().isoformat()
    included = ", ".join(f"{m} ({MODULES[m].name})" for m in modules) or "none"
    missing = [m for m in MODULES if m.startswith("OS") and m not in modules]
    total = sum(c.report.finished for c in cells)
    lines = [
        "# Baselines: side win rates of heuristic bots",
        "",
        "How often each side wins when every seat is played by the heuristic bot "
        "(`services/game/bots`, `care=1.0`), per Old Saloon module set and table size. A rating "
        "system's side offsets (docs/ratings.md) start from numbers like these, and a change to "
        "the bots or the rules that moves them is visible here.",
        "",
        f"- Date: {today}. Seed: `{seed}`. Games per module set and table size: {games} "
        f"({total:,} games in all, {seconds:,.0f} s of one core on {platform.python_implementation()} "
        f"{platform.python_version()}).",
        f"- Modules included (every subset of them, the empty set being the base game): {included}.",
    ]
    if missing:
        absent = ", ".join(missing)
        lines.append(f"- Not included (not implemented by this server when the baseline was run): {absent}.")
    lines += [
        "- Reproduce: `.venv/bin/python -m ops.baseline "
        f"--games {games} --seed {seed} --out docs/baselines.md` (one process; game `i` of a cell is "
        "`bang-league simulate --modules … --players … --seed …` game `i`, so any cell is reproduced "
        "alone with `bang-league simulate -n "
        f"{games} -p <players> --seed {seed} --modules <modules> --json`).",
        f"- Each rate is wins / games with its {CONFIDENCE:.0%} Wilson score interval. Sides: the law "
        "(Sheriff and deputies), the outlaws, the renegade (at 8 players two renegades, each playing "
        "for himself: the side wins when either does).",
        "",
    ]
    zeros = zero_wins(cells)
    lines.append(
        "**Every side can win:** every side won at least once in every module set and table size below."
        if not zeros
        else "**Sides that never won in this run:** " + "; ".join(zeros) + "."
    )
    lines.append("")
    by_set: dict[str, list[Cell]] = {}
    for cell in cells:
        by_set.setdefault(cell.ruleset.text, []).append(cell)
    for text, group in by_set.items():
        title = "base game" if text == "dice" else " + ".join(group[0].ruleset.modules)
        lines += [f"## {title} (`{text}`)", ""]
        sides = sorted({side for c in group for side in c.report.wins})
        lines.append("| players | games | " + " | ".join(sides) + " | avg turns |")
        lines.append("|---:|---:|" + "---|" * len(sides) + "---:|")
        for cell in group:
            r = cell.report
            rates = []
            for side in sides:
                n = r.wins.get(side, 0)
                low, high = wilson(n, r.finished)
                rates.append(f"{n / r.finished:.1%} [{low:.1%}, {high:.1%}]")
            row = " | ".join([str(cell.players), str(r.finished), *rates, f"{r.avg_turns:.1f}"])
            lines.append(f"| {row} |")
        lines.append("")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per module set and table size")
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument("--out", type=Path, default=None, help="docs/baselines.md (docs/baselines-undead.md)")
    parser.add_argument(
        "--undead",
        action="store_true",
        help="Undead or Alive: every allowed set of its modules, alone and with Old Saloon, 3-8 players",
    )
    args = parser.parse_args(argv)
    if args.undead:
        return undead_main(args.games, args.seed, args.out or Path("docs/baselines-undead.md"))
    args.out = args.out or Path("docs/baselines.md")
    modules = sorted(m for m in implemented_modules() if m.startswith("OS"))
    started = time.process_time()
    cells = run(args.games, args.seed, modules)
    seconds = time.process_time() - started
    args.out.write_text(render(cells, args.games, args.seed, modules, seconds) + "\n")
    zeros = zero_wins(cells)
    for line in zeros:
        print(f"never won: {line}", file=sys.stderr)
    return 1 if zeros else 0


def undead_main(games: int, seed: int, out: Path) -> int:
    modules = sorted(implemented_modules())
    started = time.process_time()
    cells = run(games, seed, modules, sets=undead_sets(modules), sizes=UNDEAD_SIZES)
    seconds = time.process_time() - started
    out.write_text(render_undead(cells, games, seed, modules, seconds) + "\n")
    zeros = undead_zero_wins(cells)
    for line in zeros:
        print(f"never won: {line}", file=sys.stderr)
    return 1 if zeros else 0


if __name__ == "__main__":
    sys.exit(main())
