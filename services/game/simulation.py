"""Bot games from deal to result: the harness behind ``bang-league simulate`` and the benchmarks.

Everything random comes from the seed: game ``i`` of ``simulate(..., seed=s)`` deals and plays
with ``random.Random(f"{s}:{i}")`` and rolls ``SeededDice(sha256(f"bang-league-sim:{s}:{i}"))``,
so a run is reproduced exactly by its seed, one game of it by its index (``game_seeds``).
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from services.game.bots.base import Bot
from services.game.fairness.dice import DiceSource, SeededDice
from services.game.rules.dice import (
    Decision,
    Game,
    GameCommand,
    PlayerId,
    RollDice,
    Seat,
    Side,
    roles_for,
)
from services.game.rules.dice.characters import CHARACTERS

MAX_COMMANDS = 20_000
"""Far beyond any real game (a five-player bot game takes about a hundred commands)."""

NO_WINNER = "none"
"""The ``wins`` key of a three-player game in which everyone fell at once."""

BotFactory = Callable[[], Bot]


class GameDidNotEnd(RuntimeError):
    """A simulated game went past its command limit: the engine or a bot loops."""


def deal(n: int, rng: random.Random) -> list[Seat]:
    """Seats for ``n`` players ``p1``..``pn``: the role table shuffled, distinct random characters."""
    roles = list(roles_for(n))
    rng.shuffle(roles)
    characters = rng.sample(list(CHARACTERS), n)
    return [
        Seat(player=PlayerId(f"p{i + 1}"), role=role, character=ch)
        for i, (role, ch) in enumerate(zip(roles, characters, strict=True))
    ]


def play_game(
    seats: list[Seat],
    bots: Mapping[PlayerId, Bot] | Bot,
    dice: DiceSource,
    rng: random.Random,
    max_commands: int = MAX_COMMANDS,
    record: list[GameCommand] | None = None,
) -> Game:
    """Play a game to its end: the dice answer every roll, the bots every other question.

    ``bots`` is one bot for every seat or one per player. Each command played is appended to
    ``record`` when given. Raises ``GameDidNotEnd`` past ``max_commands`` commands.
    """
    game = Game.start(seats)
    per_player = bots if isinstance(bots, Mapping) else None
    state = game.state
    played = 0
    while not state.is_over:
        question = game.awaiting
        assert question is not None
        if question.decision is Decision.ROLL:
            command: GameCommand = RollDice(player=question.player, faces=dice.roll(len(question.dice)))
        else:
            bot = bots if per_player is None else per_player[question.player]
            command = bot.choose(game, question, rng)  # type: ignore[union-attr]
        game.play(command)
        if record is not None:
            record.append(command)
        played += 1
        if played >= max_commands and not state.is_over:
            raise GameDidNotEnd(
                f"game of {len(seats)} players still running after {played} commands; "
                f"last: {command}, now awaiting {game.awaiting}"
            )
    return game


def game_seeds(seed: int, index: int) -> tuple[random.Random, SeededDice]:
    """The generator and the dice of game ``index`` of a run seeded ``seed``."""
    rng = random.Random(f"{seed}:{index}")
    dice = SeededDice(hashlib.sha256(f"bang-league-sim:{seed}:{index}".encode()).digest())
    return rng, dice


@dataclass(slots=True)
class SimulationReport:
    games: int
    players: int
    seed: int
    bot: str
    finished: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    """Winning side (``Side`` value, or ``none``) → games."""
    turns: int = 0
    commands: int = 0
    events: int = 0
    seconds: float = 0.0

    @property
    def avg_turns(self) -> float:
        return self.turns / self.finished if self.finished else 0.0

    @property
    def games_per_second(self) -> float:
        return self.finished / self.seconds if self.seconds > 0 else 0.0

    def add(self, game: Game) -> None:
        result = game.result
        assert result is not None
        self.finished += 1
        side = NO_WINNER if result.winning_side is None else result.winning_side.value
        self.wins[side] = self.wins.get(side, 0) + 1
        self.turns += result.turn
        self.events += len(game.events)

    def to_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "bot": self.bot,
            "finished": self.finished,
            "wins": dict(sorted(self.wins.items())),
            "avg_turns": round(self.avg_turns, 3),
            "avg_commands": round(self.commands / self.finished, 3) if self.finished else 0.0,
            "avg_events": round(self.events / self.finished, 3) if self.finished else 0.0,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games_per_second, 1),
        }


def sides_for(players: int) -> tuple[str, ...]:
    """The ``wins`` keys a run of ``players``-player games reports (zero counts included)."""
    if players == 3:
        return (Side.DEPUTY.value, Side.OUTLAW.value, Side.RENEGADE.value, NO_WINNER)
    return (Side.LAW.value, Side.OUTLAWS.value, Side.RENEGADE.value)


def simulate(
    games: int,
    players: int,
    seed: int,
    bot_factory: BotFactory,
    *,
    bot_name: str = "",
    progress: Callable[[int], None] | None = None,
) -> SimulationReport:
    """Play ``games`` games of ``players`` bots: one fresh ``bot_factory()`` per game plays
    every seat (bots keep only public knowledge, so sharing one across seats leaks nothing).

    ``progress(done)`` is called after each game. Deterministic for a given seed and factory.
    """
    roles_for(players)  # refuse an impossible player count before starting
    report = SimulationReport(games=games, players=players, seed=seed, bot=bot_name)
    report.wins = dict.fromkeys(sides_for(players), 0)
    started = time.perf_counter()
    for index in range(games):
        rng, dice = game_seeds(seed, index)
        seats = deal(players, rng)
        record: list[GameCommand] = []
        game = play_game(seats, bot_factory(), dice, rng, record=record)
        report.commands += len(record)
        report.add(game)
        if progress is not None:
            progress(index + 1)
    report.seconds = time.perf_counter() - started
    return report
