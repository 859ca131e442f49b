"""Engine benchmark: full heuristic-bot games per second, 3 to 8 players, on one core.

For each player count it plays seeded games for a fixed time budget (``SECONDS_PER_COUNT``),
recording every command; then it replays exactly those commands through the engine alone
(``Game.start`` + ``Game.play``), so ``engine_share`` = engine-only time / full-game time is
the part of a bot game spent in the rules rather than in the bots and dice. Two anchors from
the same run let a reader compare machines: ``replay_events_per_second`` (folding the recorded
events into states, the event-store read path) and ``calibration_mops`` (a fixed pure-Python
loop, millions of iterations per second). Target: 1,000 five-player games per second.

``--game cards`` (``run(game="cards")``) measures the card game instead, 4 to 8 players
(``_engine_cards``), each figure beside the dice engine's five-player games per second from the
same run.

Every time here is the process's CPU time (``time.process_time``), not wall time: the benchmark
runs on one core, and on a shared machine wall time also counts whatever else ran meanwhile.
"""

from __future__ import annotations

import platform
import random
import time

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ops.bench import _engine_cards
from services.game.bots import HeuristicBot
from services.game.rules.dice import Game, GameCommand, Seat, fold
from services.game.rules.dice.events import Event
from services.game.simulation import deal, game_seeds, play_game

PLAYER_COUNTS = range(3, 9)
SECONDS_PER_COUNT = 3.0
MIN_GAMES = 30
SEED = 20240601
TARGET_5P = 1000
_CALIBRATION_LOOPS = 2_000_000

_clock = time.process_time
"""CPU seconds of this process: what one core spent, whatever else the machine was doing."""

Played = list[tuple[list[Seat], list[GameCommand], list[Event]]]
"""Per game: its seats, the commands played, the events recorded."""


def calibration_mops() -> float:
    """Millions of iterations per second of a fixed arithmetic-and-dict loop (best of 3)."""
    best = float("inf")
    for _ in range(3):
        started = _clock()
        acc = 0
        table: dict[int, int] = {}
        for i in range(_CALIBRATION_LOOPS):
            acc += i * 7 % 13
            table[i & 255] = acc
        best = min(best, _clock() - started)
    return _CALIBRATION_LOOPS / best / 1e6


def _play(players: int, budget: float) -> tuple[float, Played]:
    """Play seeded games for about ``budget`` seconds; the time and what each game did."""
    games: Played = []
    elapsed = 0.0
    index = 0
    while elapsed < budget or len(games) < MIN_GAMES:
        rng, dice = game_seeds(SEED + players, index)
        seats = deal(players, rng)
        record: list[GameCommand] = []
        started = _clock()
        game = play_game(seats, HeuristicBot(), dice, rng, record=record)
        elapsed += _clock() - started
        games.append((seats, record, game.events))
        index += 1
    return elapsed, games


def _replay_commands(games: Played) -> float:
    started = _clock()
    for seats, record, _events in games:
        game = Game.start(seats)
        for command in record:
            game.play(command)
    return _clock() - started


def _fold_events(games: Played) -> float:
    started = _clock()
    for _seats, _record, events in games:
        fold(events)
    return _clock() - started


def run(seconds_per_count: float = SECONDS_PER_COUNT, game: str = "dice") -> dict[str, object]:
    if game == "cards":
        return _run_cards(seconds_per_count)
    if game != "dice":
        raise ValueError(f"unknown game type {game!r}: dice or cards")
    random.seed(SEED)  # nothing here should use the global generator; pinned all the same
    calibration = calibration_mops()
    games_per_second: dict[str, float] = {}
    engine_share: dict[str, float] = {}
    played: dict[str, int] = {}
    commands_per_game: dict[str, float] = {}
    events = 0
    fold_seconds = 0.0
    full_total = engine_total = 0.0
    for players in PLAYER_COUNTS:
        full, games = _play(players, seconds_per_count)
        engine = _replay_commands(games)
        key = str(players)
        games_per_second[key] = round(len(games) / full, 1)
        engine_share[key] = round(engine / full, 3)
        played[key] = len(games)
        commands_per_game[key] = round(sum(len(r) for _s, r, _e in games) / len(games), 1)
        events += sum(len(e) for _s, _r, e in games)
        fold_seconds += _fold_events(games)
        full_total += full
        engine_total += engine
    return {
        "games_per_second": games_per_second,
        "engine_share": engine_share,
        "engine_share_overall": round(engine_total / full_total, 3),
        "games_played": played,
        "commands_per_game": commands_per_game,
        "replay_events_per_second": round(events / fold_seconds),
        "calibration_mops": round(calibration, 2),
        "target_5p_games_per_second": TARGET_5P,
        "meets_target": games_per_second["5"] >= TARGET_5P,
        "bot": "heuristic",
        "seconds_per_count": seconds_per_count,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }


def _run_cards(seconds_per_count: float) -> dict[str, object]:
    random.seed(SEED)
    calibration = calibration_mops()
    dice_seconds, dice_games = _play(_engine_cards.DICE_ANCHOR_PLAYERS, seconds_per_count)
    return _engine_cards.run(seconds_per_count, len(dice_games) / dice_seconds, calibration)


def render(result: dict[str, object]) -> Group:
    if result.get("game") == "cards":
        return _engine_cards.render(result)
    gps = result["games_per_second"]
    share = result["engine_share"]
    played = result["games_played"]
    per_game = result["commands_per_game"]
    assert isinstance(gps, dict) and isinstance(share, dict)
    assert isinstance(played, dict) and isinstance(per_game, dict)
    table = Table(title="engine: heuristic-bot games, one core")
    table.add_column("players", justify="right")
    table.add_column("games/s", justify="right")
    table.add_column("engine share", justify="right")
    table.add_column("commands/game", justify="right")
    table.add_column("games", justify="right")
    for key in gps:
        table.add_row(key, f"{gps[key]:,.0f}", f"{share[key]:.0%}", f"{per_game[key]:.0f}", str(played[key]))
    verdict = "meets" if result["meets_target"] else "misses"
    notes = Text(
        f"5 players: {gps['5']:,.0f} games/s, {verdict} the target of "
        f"{result['target_5p_games_per_second']:,}\n"
        f"anchors: folding events {result['replay_events_per_second']:,} events/s; "
        f"calibration loop {result['calibration_mops']} M iterations/s (Python {result['python']})"
    )
    return Group(table, notes)
