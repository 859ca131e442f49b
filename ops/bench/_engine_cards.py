"""``bench engine --game cards``: heuristic-bot card games per second, 4 to 8 players, one core.

For each player count it plays seeded card games (``simulation_cards``: through the card
engine, decks and random picks derived from each game's seed) for a CPU-time budget,
recording every command; then it replays exactly those commands through the engine alone
(``Game.start`` + ``Game.play``) and folds the recorded events (``fold``), so
``engine_share`` = engine-only time / full-game time. The anchor is the dice engine's own
figure measured in the same run, the same way (five-player heuristic dice games per second,
``engine._play``): each card figure is also given as a ratio to it, and beside the calibration
loop. Every time is CPU time (``time.process_time``).
"""

from __future__ import annotations

import platform
import random
import time

from rich.console import Group
from rich.table import Table
from rich.text import Text

from services.game.bots.cards import HeuristicCardBot
from services.game.rules.cards import commands as cmd
from services.game.rules.cards.events import Event, Seat
from services.game.rules.cards.evolve import fold
from services.game.rules.cards.game import Game
from services.game.simulation_cards import deal, game_seeds, play_game

PLAYER_COUNTS = range(4, 9)
SEED = 20261123
MIN_GAMES = 10
DICE_ANCHOR_PLAYERS = 5

_clock = time.process_time

Played = list[tuple[list[Seat], list[cmd.Command], list[Event]]]


def _play(players: int, budget: float) -> tuple[float, Played]:
    games: Played = []
    elapsed = 0.0
    index = 0
    while elapsed < budget or len(games) < MIN_GAMES:
        rng, table = game_seeds(SEED + players, index, players)
        seats = deal(players, table)
        record: list[cmd.Command] = []
        started = _clock()
        game = play_game(seats, HeuristicCardBot(), table, rng, record=record)
        elapsed += _clock() - started
        games.append((seats, record, game.events))
        index += 1
    return elapsed, games


def _replay_commands(games: Played) -> float:
    started = _clock()
    for seats, record, _events in games:
        game = Game.start(seats, eight_players=len(seats) == 8)
        for command in record:
            game.play(command)
    return _clock() - started


def _fold_events(games: Played) -> float:
    started = _clock()
    for _seats, _record, events in games:
        fold(events)
    return _clock() - started


def run(seconds_per_count: float, dice_games_per_second: float, calibration: float) -> dict[str, object]:
    """The card figures; ``dice_games_per_second`` (five players) and ``calibration`` are the
    anchors measured by ``engine.run`` in the same run."""
    random.seed(SEED)
    games_per_second: dict[str, float] = {}
    ratio: dict[str, float] = {}
    replay: dict[str, float] = {}
    folded: dict[str, float] = {}
    share: dict[str, float] = {}
    played: dict[str, int] = {}
    commands_per_game: dict[str, float] = {}
    events_per_game: dict[str, float] = {}
    for players in PLAYER_COUNTS:
        full, games = _play(players, seconds_per_count)
        engine = _replay_commands(games)
        fold_seconds = _fold_events(games)
        key = str(players)
        n = len(games)
        games_per_second[key] = round(n / full, 1)
        ratio[key] = round(n / full / dice_games_per_second, 3)
        replay[key] = round(n / engine, 1)
        folded[key] = round(n / fold_seconds, 1)
        share[key] = round(engine / full, 3)
        played[key] = n
        commands_per_game[key] = round(sum(len(r) for _s, r, _e in games) / n, 1)
        events_per_game[key] = round(sum(len(e) for _s, _r, e in games) / n, 1)
    return {
        "game": "cards",
        "games_per_second": games_per_second,
        "ratio_to_dice_5p": ratio,
        "replay_games_per_second": replay,
        "fold_games_per_second": folded,
        "engine_share": share,
        "games_played": played,
        "commands_per_game": commands_per_game,
        "events_per_game": events_per_game,
        "dice_5p_games_per_second": round(dice_games_per_second, 1),
        "calibration_mops": round(calibration, 2),
        "bot": "heuristic",
        "seconds_per_count": seconds_per_count,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }


def render(result: dict[str, object]) -> Group:
    gps, ratio = result["games_per_second"], result["ratio_to_dice_5p"]
    replay, folded = result["replay_games_per_second"], result["fold_games_per_second"]
    per_game, played = result["commands_per_game"], result["games_played"]
    assert isinstance(gps, dict) and isinstance(ratio, dict) and isinstance(replay, dict)
    assert isinstance(folded, dict) and isinstance(per_game, dict) and isinstance(played, dict)
    table = Table(title="engine --game cards: heuristic-bot card games, one core")
    for column in (
        "players",
        "games/s",
        "÷ dice 5p",
        "replay games/s",
        "fold games/s",
        "commands/game",
        "games",
    ):
        table.add_column(column, justify="right")
    for key in gps:
        table.add_row(
            key,
            f"{gps[key]:,.1f}",
            f"{ratio[key]:.3f}",
            f"{replay[key]:,.0f}",
            f"{folded[key]:,.0f}",
            f"{per_game[key]:.0f}",
            str(played[key]),
        )
    notes = Text(
        f"anchor: the dice engine's five-player heuristic games, same run: "
        f"{result['dice_5p_games_per_second']:,} games/s; calibration loop {result['calibration_mops']} "
        f"M iterations/s (Python {result['python']})"
    )
    return Group(table, notes)
