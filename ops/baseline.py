"""The published baseline: side win rates of heuristic bots per Old Saloon module set, 4–8 players.

    .venv/bin/python -m ops.baseline --games 200 --seed 20261123 --out docs/baselines.md

plays ``--games`` games (``services.game.simulation.simulate``, heuristic bots in every seat)
for every subset of the Old Saloon modules this server implements (the empty set is the base
game) at every table size from 4 to 8 the ruleset allows (``ruleset.refusal``: the Ghost needs
5), and writes a Markdown page: each side's win rate with its 95% Wilson score interval, the
game counts, the seed, the command that reproduces it and the date. One process, one core.

It also checks that every side won at least once in every module set and size. A side that did
not is looked for further on by the rare sides pass (``rare_sides``): the cell's seed stream is
played on, game ``--games`` + 1 onwards, until that side wins or ``--rare-cap`` games (20,000 by
default) have been played in all, and the page says in which game it first won, or that it never
did (exit status 1 then, so a run that shows a side that cannot win fails).

    .venv/bin/python -m ops.baseline --undead --games 200 --seed 20261123 --out docs/baselines-undead.md

(``--undead``) does the same for Undead or Alive: every set of the Undead or Alive modules this
server implements that the rules allow (UA1 needs UA2), alone and with every Old Saloon module
it implements, at every table size from 3 to 8 the ruleset allows (UA4 and OS3 need 4 players,
OS5 needs 5). With UA4 the zombies' sides (``zombies``, ``survivors``) and the outbreak rate
(games whose ``GameEnded`` names an ``outbreak_turn``) join the table. A 3-player game's sides
are its roles (``deputy`` is shown under the law, ``outlaw`` under the outlaws, ``none``: the
last two fell at once). Every side that can win counts for the rare sides pass and the exit
status, the zombies' sides included; ``none`` is nobody's win and never does. With UA4 a base
side wins only a game without an outbreak, so the renegade (the last player alive) and the law
(every outlaw and renegade out) can be rare there: the pass measures how rare.

    .venv/bin/python -m ops.baseline --look-on "UA3 UA4:8:renegade" --from 60000 --rare-cap 300000

(``--look-on``) takes the pass up for one cell and side where an earlier search stopped, and
prints the first win it finds (``look_on``): for a side too rare for the page's cap.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import math
import platform
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist

from services.game.bots import HeuristicBot
from services.game.engines import engine_for, implemented_modules
from services.game.rules.dice import Awaiting, Game, GameCommand, GameState, Role
from services.game.rules.dice.events import PlayerEliminated
from services.game.rules.ruleset import MODULES, ModuleId, Ruleset, refusal, ruleset_of
from services.game.simulation import NO_WINNER, SimulationReport, deal, game_seeds, play_game, simulate

SIZES = range(4, 9)
UNDEAD_SIZES = range(3, 9)
SERIES_ONLY = frozenset({ModuleId.UA5})
"""Modules that change only the games after the first of a series (UA5: a designated Sheriff's
+1 life): a single bot game with them is the very game without them, so they get no cells."""
RARE_CAP = 20_000
"""The rare sides pass plays a cell's seed stream on up to this many games in all."""
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


@dataclass(slots=True)
class Rare:
    """A side that never won in its cell's ``--games`` games, looked for further on in the same
    seed stream (game ``i`` is ``bang-league simulate`` game ``i``) by the rare sides pass."""

    ruleset: Ruleset
    players: int
    side: str
    first: int | None
    """The number (from 1) of the first game of the stream that this side won; None: none did."""
    played: int
    """The games of the stream played for this cell in all, the baseline's own included."""
    how: str = ""
    """How that first won game ended, read from its events (empty when it never won)."""

    @property
    def label(self) -> str:
        return f"{self.ruleset.text}, {self.players} players: {self.side}"

    def finding(self) -> str:
        if self.first is None:
            high = wilson(0, self.played)[1]
            return f"{self.label} never won in {self.played:,} games (win rate below {high:.3%} at 95%)"
        return f"{self.label} first won in game {self.first:,} of {self.played:,}"


def play_one(ruleset: Ruleset, players: int, seed: int, index: int) -> tuple[str, Game]:
    """Game ``index`` of a run seeded ``seed`` (exactly ``simulate``'s game ``index``: the same
    seeds, deal and fresh heuristic bot) and its winning side (``none``: nobody won)."""
    rng, dice = game_seeds(seed, index, ruleset)
    game = play_game(deal(players, rng, ruleset), HeuristicBot(), dice, rng, ruleset=ruleset)
    finish = engine_for(ruleset).finish(game)
    assert finish is not None
    return (finish.winners[0] if finish.winners else NO_WINNER), game


class _Hopeless(Exception):
    """Raised in a rare sides game once none of the sides looked for can win it any more."""


def cannot_win(state: GameState, side: str) -> bool:
    """Whether ``side`` can no longer win the game in ``state``: a base side once an outbreak has
    begun (the zombies or the survivors win then), the renegade also once no Renegade is alive
    (only a living one is ever the last player standing). False when unsure."""
    if side in BASE_SIDES and state.outbreak:
        return True
    if side == "renegade":
        return not any(p.alive and p.role is Role.RENEGADE for p in state.players)
    return False


class _Watching:
    """The heuristic bot of a rare sides game, which stops the game (``_Hopeless``) as soon as
    none of ``sides`` can win it: only whether they won is wanted, and a stopped game is one they
    did not win, so the pass finds the very games a full run would."""

    __slots__ = ("bot", "sides")

    def __init__(self, sides: Sequence[str]) -> None:
        self.bot = HeuristicBot()
        self.sides = tuple(sides)

    def choose(self, game: Game | GameState, question: Awaiting, rng: random.Random) -> GameCommand:
        state = game.state if isinstance(game, Game) else game
        if all(cannot_win(state, side) for side in self.sides):
            raise _Hopeless
        return self.bot.choose(game, question, rng)


def play_for(
    ruleset: Ruleset, players: int, seed: int, index: int, sides: Sequence[str]
) -> tuple[str, Game] | None:
    """``play_one``, stopped as soon as none of ``sides`` can win the game: None then."""
    rng, dice = game_seeds(seed, index, ruleset)
    try:
        game = play_game(deal(players, rng, ruleset), _Watching(sides), dice, rng, ruleset=ruleset)
    except _Hopeless:
        return None
    finish = engine_for(ruleset).finish(game)
    assert finish is not None
    return (finish.winners[0] if finish.winners else NO_WINNER), game


def how_it_ended(game: Game) -> str:
    """The last turn of a finished game in words: its number, who fell in it and to what, and
    (UA4) the Boneyard's hands showing then."""
    state = game.state
    fallen = [e for e in game.events if type(e) is PlayerEliminated]
    last = fallen[-1].turn if fallen else 0
    causes: dict[str, int] = {}
    for e in fallen:
        if e.turn == last:
            causes[str(e.cause)] = causes.get(str(e.cause), 0) + 1
    words = ", ".join(f"{cause} x{n}" if n > 1 else cause for cause, n in sorted(causes.items()))
    n = sum(causes.values())
    text = f"turn {last}: {n} fell in it ({words})"
    if state.boneyard is not None:
        hands = state.boneyard.hands_showing
        text += f", {hands} hand{'' if hands == 1 else 's'} showing"
    return text


def rare_sides(cells: Sequence[Cell], seed: int, cap: int = RARE_CAP, echo: bool = True) -> list[Rare]:
    """For each cell where a side that can win never did (``none`` aside: nobody wins then), play
    the cell's seed stream on from its last game until each such side has won once or ``cap``
    games have been played in all."""
    found: list[Rare] = []
    for cell in cells:
        missing = [side for side, n in sorted(cell.report.wins.items()) if n == 0 and side != NO_WINNER]
        if not missing:
            continue
        first: dict[str, tuple[int, str]] = {}
        index = cell.report.finished
        started = time.perf_counter()
        while index < cap and len(first) < len(missing):
            played = play_for(cell.ruleset, cell.players, seed, index, [s for s in missing if s not in first])
            index += 1
            if played is not None and played[0] in missing and played[0] not in first:
                first[played[0]] = (index, how_it_ended(played[1]))
        for side in missing:
            at, how = first.get(side, (None, ""))
            found.append(Rare(cell.ruleset, cell.players, side, at, index, how))
            if echo:
                print(f"rare: {found[-1].finding()} ({time.perf_counter() - started:.1f} s)", file=sys.stderr)
    return found


def look_on(
    ruleset: Ruleset, players: int, side: str, seed: int, start: int, cap: int
) -> tuple[int, str] | None:
    """The rare sides pass for one cell and side, from game ``start`` + 1 of the cell's seed
    stream (``start`` games already looked at) up to game ``cap``: the number of the first game
    ``side`` wins (from 1, as the page counts) and how it ended, or None. A long search is taken
    up where an earlier one stopped, and a page's finding is checked game by game."""
    for index in range(start, cap):
        played = play_for(ruleset, players, seed, index, [side])
        if played is not None and played[0] == side:
            return index + 1, how_it_ended(played[1])
    return None


def _look_on_main(cell: str, seed: int, start: int, cap: int) -> int:
    """``--look-on "UA3 UA4:8:renegade"``: print the first win found, exit 1 if none."""
    try:
        modules, players, side = cell.split(":")
        ruleset = ruleset_of(modules.split(), "dice")
        size = int(players)
    except ValueError as error:
        print(f'--look-on takes MODULES:PLAYERS:SIDE ("UA3 UA4:8:renegade"): {error}', file=sys.stderr)
        return 2
    started = time.process_time()
    found = look_on(ruleset, size, side, seed, start, cap)
    spent = time.process_time() - started
    where = f"{ruleset.text}, {size} players, seed {seed}, games {start + 1:,}–{cap:,}"
    if found is None:
        print(f"{where}: {side} never won ({spent:.0f} s)")
        return 1
    print(f"{where}: {side} first won in game {found[0]:,}: {found[1]} ({spent:.0f} s)")
    return 0


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


BOTS_BY_SIDE = (
    "**What the bots do, by side** (`services/game/bots/wants.py`, from what each player may know): "
    "the outlaws shoot the Sheriff first, then whoever has defended him; the Sheriff and the deputies "
    "shoot whoever has shot the Sheriff and spare whoever has defended him; the renegade keeps the "
    "Sheriff alive for last (until they are the last two he aims at him only when nobody else is in "
    "reach, and gives him his beers when he is low, himself first when low too) and shoots the "
    "stronger of the other two sides, propping up the weaker; every seat heals itself when low, else "
    "the friend it most needs."
)
"""The bots' policy by side, in the words of both pages (``wants.py`` is its code)."""

UNDEAD_BOTS_BY_SIDE = (
    "**With UA4**, before an outbreak: the same, and the law and the outlaws know that each fall "
    "feeds the Boneyard (one more card revealed every turn, one more zombie at the outbreak): once "
    "one more fall may start it (hands showing at least the players alive less 2), they do not "
    "finish off a player whose fall would not win them the game while another player they want "
    "hurt is in reach; "
    "the renegade, the Zombie Master to be if he is alive at the outbreak, does not hold back. After "
    "an outbreak the roles no longer count, only the two public sides: the survivors (law and outlaws "
    "alike) shoot the zombies and the Zombie Master, never one another while one of the other side is "
    "in reach (forced to, the one with most life to spare); the zombies and the Master shoot the "
    "survivors; a gatling is kept only when it hits more of the other side than of one's own; a "
    "zombie (three base dice, no arrows, no heal of his own) keeps no beer for himself: his beers go "
    "to his hurt Master, else are wasted on himself, never on a survivor."
)

RARE_WHY = (
    "Why a side can be rare with UA4: before an outbreak the base conditions apply, so the renegade "
    "wins only as the last player alive (the Sheriff falling last) and the law only once every outlaw "
    "and renegade is out. Every player who falls before an outbreak reveals a Boneyard card at the "
    "end of the turn he fell in and at the start of each of his later turns; 9 of the 11 cards show "
    "hands (12 in all) and stay face up, and the outbreak begins once the hands showing outnumber the "
    "players alive (a no-hands card holds it off for the rest of its turn only). The more falls a "
    "side needs, the likelier the outbreak comes first. Such a win stays possible at every table "
    "size: a fall that ends the game reveals nothing, so the last players falling in the same turn "
    "(an Indian attack, a gatling) end it before the Boneyard can (`tests/unit/test_baseline.py` "
    "plays such a game at 8 players: the renegade's gatling takes the seven others, each at 1 life, "
    "at once). How rare it is in bot play, only a run says: "
    "each side that never won in its cell's games was looked for further on in the same seed stream "
    "(game `i` is `bang-league simulate` game `i`), up to a cap."
)


def render_rare(rares: Sequence[Rare], games: int, cap: int, seconds: float) -> list[str]:
    """The rare sides pass's section: each side that never won in a cell's ``games`` games, the
    game of its stream it first won, or that it never did within ``cap``."""
    if not rares:
        return []
    never = [r for r in rares if r.first is None]
    lines = [
        "## Rare sides",
        "",
        RARE_WHY,
        "",
        f"- Cap: {cap:,} games per cell in all; the pass took {seconds:,.0f} s of one core.",
        (
            f"- Every one of these sides won within {cap:,} games of its cell's stream."
            if not never
            else "- **Never won within the cap:** " + "; ".join(r.finding() for r in never) + "."
        ),
        "",
        "| module set | players | side | wins in games 1–"
        f"{games} | first won in game | games played | how that game ended (its last turn) |",
        "|---|---:|---|---:|---:|---:|---|",
    ]
    for r in rares:
        first = "never" if r.first is None else f"{r.first:,}"
        title = " + ".join(r.ruleset.modules) or "base game"
        lines.append(f"| {title} | {r.players} | {r.side} | 0 | {first} | {r.played:,} | {r.how or '—'} |")
    lines.append("")
    return lines


def render_undead(
    cells: Sequence[Cell],
    games: int,
    seed: int,
    modules: Sequence[ModuleId],
    seconds: float,
    rares: Sequence[Rare] = (),
    rare_seconds: float = 0.0,
    cap: int = RARE_CAP,
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
        f"--games {games} --seed {seed} --rare-cap {cap} --out docs/baselines-undead.md`; one cell "
        f"alone: `bang-league simulate -n {games} -p <players> --seed {seed} --modules <modules> "
        "--json` (the same games).",
        f"- Each rate is wins / games with its {CONFIDENCE:.0%} Wilson score interval. Three players: "
        "the sides are the three roles (the deputy under the law, the outlaw under the outlaws; "
        "`none`: the last two fell at once). With UA4, `zombies` and `survivors` win only after an "
        "outbreak (the Zombie Master shares the zombies' win), and `outbreaks` is the share of games "
        "in which one began.",
        "",
        BOTS_BY_SIDE,
        "",
        UNDEAD_BOTS_BY_SIDE,
        "",
    ]
    zeros = undead_zero_wins(cells)
    lines.append(
        "**Every side can win:** without UA4, the law, the outlaws and the renegade each won at least "
        f"once in every module set and table size below, in its {games} games."
        if not zeros
        else f"**Sides that never won in {games} games:** " + "; ".join(zeros) + "."
    )
    zombie_cells = [c for c in cells if c.ruleset.has(ModuleId.UA4)]
    zombie_zeros = [z for z in zero_wins(zombie_cells) if not z.endswith(": none")]
    if zombie_zeros:
        lines += [
            "",
            f"**With UA4, sides that never won in {games} games** (a base side wins only a game "
            "without an outbreak; after one the living Renegade is the Zombie Master and shares the "
            "zombies' win, the law and the outlaws are survivors): "
            + "; ".join(zombie_zeros)
            + (". Each is looked for further on under *Rare sides* below." if rares else "."),
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
    lines += render_rare(rares, games, cap, rare_seconds)
    return "\n".join(lines)


def render(
    cells: Sequence[Cell],
    games: int,
    seed: int,
    modules: Sequence[ModuleId],
    seconds: float,
    rares: Sequence[Rare] = (),
    rare_seconds: float = 0.0,
    cap: int = RARE_CAP,
) -> str:
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
        BOTS_BY_SIDE,
        "",
    ]
    zeros = zero_wins(cells)
    lines.append(
        "**Every side can win:** every side won at least once in every module set and table size below."
        if not zeros
        else f"**Sides that never won in {games} games:** "
        + "; ".join(zeros)
        + (" (looked for further on under *Rare sides* below)." if rares else ".")
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
    lines += render_rare(rares, games, cap, rare_seconds)
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
    parser.add_argument(
        "--rare-cap",
        type=int,
        default=RARE_CAP,
        help="the rare sides pass: a side that never won in a cell is looked for up to this many games "
        "of the cell's seed stream in all (0: no pass)",
    )
    parser.add_argument(
        "--look-on",
        metavar="MODULES:PLAYERS:SIDE",
        default=None,
        help='the rare sides pass for one cell and side ("UA3 UA4:8:renegade"), from game --from + 1 '
        "up to game --rare-cap; prints the first win found (no page is written)",
    )
    parser.add_argument(
        "--from", dest="start", type=int, default=0, help="with --look-on: games looked at already"
    )
    args = parser.parse_args(argv)
    if args.look_on is not None:
        return _look_on_main(args.look_on, args.seed, args.start, args.rare_cap)
    if args.undead:
        return undead_main(args.games, args.seed, args.out or Path("docs/baselines-undead.md"), args.rare_cap)
    out = args.out or Path("docs/baselines.md")
    modules = sorted(m for m in implemented_modules() if m.startswith("OS"))
    started = time.process_time()
    cells = run(args.games, args.seed, modules)
    seconds = time.process_time() - started
    rares, rare_seconds = _rare_pass(cells, args.seed, args.rare_cap)
    out.write_text(
        render(cells, args.games, args.seed, modules, seconds, rares, rare_seconds, args.rare_cap) + "\n"
    )
    return _status(zero_wins(cells), rares, args.rare_cap)


def _rare_pass(cells: Sequence[Cell], seed: int, cap: int) -> tuple[list[Rare], float]:
    started = time.process_time()
    rares = rare_sides(cells, seed, cap) if cap > 0 else []
    return rares, time.process_time() - started


def _status(zeros: Sequence[str], rares: Sequence[Rare], cap: int) -> int:
    """1 when a side of ``zeros`` never won: in the cell's games alone without the rare sides
    pass, else within its cap (a side rare enough to miss the cap fails the run too)."""
    if cap > 0:
        zeros = [r.label for r in rares if r.first is None and r.label in set(zeros)]
    for line in zeros:
        print(f"never won: {line}", file=sys.stderr)
    return 1 if zeros else 0


def undead_main(games: int, seed: int, out: Path, cap: int = RARE_CAP) -> int:
    modules = sorted(implemented_modules())
    started = time.process_time()
    cells = run(games, seed, modules, sets=undead_sets(modules), sizes=UNDEAD_SIZES)
    seconds = time.process_time() - started
    rares, rare_seconds = _rare_pass(cells, seed, cap)
    out.write_text(render_undead(cells, games, seed, modules, seconds, rares, rare_seconds, cap) + "\n")
    # every side that can win counts: the base sides everywhere, the zombies' sides with UA4
    # (``none`` is nobody's win)
    return _status([z for z in zero_wins(cells) if not z.endswith(": none")], rares, cap)


if __name__ == "__main__":
    sys.exit(main())
