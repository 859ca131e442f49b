"""Bot games from deal to result: the harness behind ``bang-league simulate`` and the benchmarks.

Everything random comes from the seed: game ``i`` of ``simulate(..., seed=s)`` deals and plays
with ``random.Random(f"{s}:{i}")`` and rolls ``SeededDice(sha256(f"bang-league-sim:{s}:{i}"))``
(``KindedDice``, the same stream read per die kind, when a module brings other dice), so a run
is reproduced exactly by its seed, one game of it by its index (``game_seeds``).

A run plays one ruleset (the base game unless told): games go through the ruleset's engine
(``engines.engine_for``): its character pool deals the seats, its random needs say which kind of
die each roll is, and its result says who won. A question the rules ask of the whole table (an
Old Saloon special role's window) is put to each seat able to answer it; the window is passed
when no bot acts.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from services.game.bots.base import Bot
from services.game.engines import engine_for, unplayable
from services.game.fairness.dice import DiceSource, SeededDice
from services.game.fairness.dice_kinds import KindedDice
from services.game.fairness.special_roles import deal_special_roles
from services.game.rules.dice import (
    Awaiting,
    Decision,
    Game,
    GameCommand,
    PlayerId,
    RollDice,
    Seat,
    roles_for,
)
from services.game.rules.dice.events import GameEnded
from services.game.rules.dice.outcome import side_of
from services.game.rules.dice.vocabulary import Side
from services.game.rules.ruleset import BASE_DICE, ModuleId, Ruleset, refusal

MAX_COMMANDS = 20_000
"""Far beyond any real game (a five-player bot game takes about a hundred commands)."""

NO_WINNER = "none"
"""The ``wins`` key of a three-player game in which everyone fell at once."""

BotFactory = Callable[[], Bot]


class GameDidNotEnd(RuntimeError):
    """A simulated game went past its command limit: the engine or a bot loops."""


class Unplayable(ValueError):
    """A ruleset the simulation cannot play at this table size: the message says why, in the
    ruleset's own words."""


def check_playable(ruleset: Ruleset, players: int) -> None:
    """Raise ``Unplayable`` unless ``players`` bots can play ``ruleset`` on this server."""
    reason = refusal(ruleset, players) or unplayable(ruleset)
    if reason is not None:
        raise Unplayable(reason)


def deal(n: int, rng: random.Random, ruleset: Ruleset = BASE_DICE) -> list[Seat]:
    """Seats for ``n`` players ``p1``..``pn``: the role table shuffled, distinct random
    characters from the ruleset's pool and, with OS3, a special role card per seat."""
    roles = list(roles_for(n))
    rng.shuffle(roles)
    excluded = set(ruleset.excluded_characters())
    # the rules' own order, so the base game deals exactly as before modules existed
    pool = [c for c in engine_for(ruleset).rules.characters if c.value not in excluded]  # type: ignore[attr-defined]
    characters = rng.sample(pool, n)
    seats = [
        Seat(player=PlayerId(f"p{i + 1}"), role=role, character=ch)
        for i, (role, ch) in enumerate(zip(roles, characters, strict=True))
    ]
    if ruleset.has(ModuleId.OS3):
        seats = deal_special_roles(rng.randbytes(32), seats)
    return seats


def play_game(
    seats: list[Seat],
    bots: Mapping[PlayerId, Bot] | Bot,
    dice: DiceSource,
    rng: random.Random,
    max_commands: int = MAX_COMMANDS,
    record: list[GameCommand] | None = None,
    ruleset: Ruleset = BASE_DICE,
) -> Game:
    """Play a game of ``ruleset`` to its end: the dice answer every roll, the bots every other
    question.

    ``bots`` is one bot for every seat or one per player. Each command played is appended to
    ``record`` when given. Raises ``GameDidNotEnd`` past ``max_commands`` commands.
    """
    engine = engine_for(ruleset)
    game: Game = engine.start(seats)  # type: ignore[assignment]
    per_player = bots if isinstance(bots, Mapping) else None
    state = game.state
    table = {spec.decision for spec in state.rules.decisions.values() if spec.who == _TABLE}
    draws = {spec.decision for spec in state.rules.decisions.values() if spec.who == _DICE} - {_ROLL}
    base_dice = state.rules.is_base  # the base game: five base dice every turn
    played = 0
    while not state.is_over:
        question = game.awaiting
        assert question is not None
        if question.decision is _ROLL:
            if base_dice:  # the hot loop ``bench engine`` measures: no need to ask for kinds
                command: GameCommand = RollDice(player=question.player, faces=dice.roll(len(question.dice)))
            else:
                need = engine.random_need(game)
                assert need is not None
                faces = dice.roll(len(need.dice), None if need.all_base else need.dice)
                command = engine.supply(game, need, faces)
        elif draws and question.decision in draws:  # a card drawn at random (UA2's Rage cards)
            need = engine.random_need(game)
            assert need is not None and need.cards
            command = engine.supply(game, need, (need.cards[rng.randrange(len(need.cards))],))
        elif table and question.decision in table:
            command = _table_answer(game, question, bots, rng)
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


_ROLL = Decision.ROLL
"""Read at every command: a constant (an enum member's read is slow on Python 3.11)."""
_DICE = "dice"
"""``DecisionSpec.who`` of a random input: the dice, and cards drawn at random (UA2)."""
_TABLE = "table"
"""``DecisionSpec.who`` of a question asked of the whole table (OS3's role windows)."""


def _table_answer(
    game: Game, question: Awaiting, bots: Mapping[PlayerId, Bot] | Bot, rng: random.Random
) -> GameCommand:
    """A question to the table: each seat that could act at it (by the engine's list of legal
    answers) is asked in turn, clockwise from the one it names; the first that acts answers,
    else the window's default (a pass) is played, as the server plays it online."""
    state = game.state
    spec = state.rules.decisions[question.decision]
    default = spec.timeout(state, question)
    able = {c.player for c in spec.generate(state, question) if c != default}
    if able:
        n = len(state.players)
        first = state.by_id[question.player].seat
        for k in range(n):
            seat = state.players[(first + k) % n].id
            if seat not in able:
                continue
            asked = msgspec.structs.replace(question, player=seat)
            bot = bots[seat] if isinstance(bots, Mapping) else bots
            answer = bot.choose(game, asked, rng)
            if answer.player == seat and answer != spec.timeout(state, asked):
                return answer
    assert default is not None, f"{question.decision} has no default for the table"
    return default


def game_seeds(seed: int, index: int, ruleset: Ruleset = BASE_DICE) -> tuple[random.Random, DiceSource]:
    """The generator and the dice of game ``index`` of a run seeded ``seed``."""
    rng = random.Random(f"{seed}:{index}")
    key = hashlib.sha256(f"bang-league-sim:{seed}:{index}".encode()).digest()
    dice = SeededDice(key) if ruleset.is_base else KindedDice(key)
    return rng, dice


@dataclass(slots=True)
class SimulationReport:
    games: int
    players: int
    seed: int
    bot: str
    ruleset: str = BASE_DICE.text
    """The ruleset's text form (``dice``, ``dice OS1 OS2``)."""
    finished: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    """Winning side (``Side`` value, or ``none``) → games; every side that can win is a key."""
    turns: int = 0
    commands: int = 0
    events: int = 0
    seconds: float = 0.0
    outbreaks: int | None = None
    """UA4: the games in which an outbreak began (``GameEnded.outbreak_turn`` set); None for a
    ruleset without zombies, until a game reports one."""

    @property
    def outbreak_rate(self) -> float | None:
        if self.outbreaks is None:
            return None
        return self.outbreaks / self.finished if self.finished else 0.0

    @property
    def avg_turns(self) -> float:
        return self.turns / self.finished if self.finished else 0.0

    @property
    def games_per_second(self) -> float:
        return self.finished / self.seconds if self.seconds > 0 else 0.0

    def add(self, game: Game, finish: Any) -> None:
        """Count ``game``, ended with ``finish`` (the engine's neutral ``GameFinish``)."""
        self.finished += 1
        side = finish.winners[0] if finish.winners else NO_WINNER
        self.wins[side] = self.wins.get(side, 0) + 1
        self.turns += finish.turn
        self.events += len(game.events)
        if outbreak_turn(game) is not None:
            self.outbreaks = (self.outbreaks or 0) + 1

    def to_json(self) -> dict[str, object]:
        outbreaks: dict[str, object] = {}
        if self.outbreaks is not None:
            rate = self.outbreak_rate or 0.0
            outbreaks = {"outbreaks": self.outbreaks, "outbreak_rate": round(rate, 4)}
        return {
            **outbreaks,
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "bot": self.bot,
            "ruleset": self.ruleset,
            "finished": self.finished,
            "wins": dict(sorted(self.wins.items())),
            "avg_turns": round(self.avg_turns, 3),
            "avg_commands": round(self.commands / self.finished, 3) if self.finished else 0.0,
            "avg_events": round(self.events / self.finished, 3) if self.finished else 0.0,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games_per_second, 1),
        }


OUTBREAK_SIDES: tuple[str, ...] = (Side.SURVIVORS.value, Side.ZOMBIES.value)
"""UA4: the sides that win a game after an outbreak (the Zombie Master shares the zombies' win,
docs/rulings.md), beside the base sides that win a game without one."""


def outbreak_turn(game: Game) -> int | None:
    """UA4: the turn in which ``game``'s outbreak began, as its ``GameEnded`` records it; None
    when none did (or the game has not ended)."""
    for event in reversed(game.events):
        if isinstance(event, GameEnded):
            turn = event.outbreak_turn
            return turn if isinstance(turn, int) else None
    return None


def sides_for(players: int, ruleset: Ruleset = BASE_DICE) -> tuple[str, ...]:
    """The ``wins`` keys of a run of ``players``-player games of ``ruleset``: the side of every
    seat of a game its engine deals (three players: each role its own side, plus ``none``,
    when the last two fall at once) and, with UA4's zombies, the sides that win after an
    outbreak."""
    game: Game = engine_for(ruleset).start(deal(players, random.Random(0), ruleset))  # type: ignore[assignment]
    state = game.state
    sides = {side_of(state, p).value for p in state.players}
    if ruleset.has(ModuleId.UA4):
        sides |= set(OUTBREAK_SIDES)
    ordered = sorted(sides)
    return (*ordered, NO_WINNER) if state.three_player else tuple(ordered)


def simulate(
    games: int,
    players: int,
    seed: int,
    bot_factory: BotFactory,
    *,
    bot_name: str = "",
    ruleset: Ruleset = BASE_DICE,
    progress: Callable[[int], None] | None = None,
) -> SimulationReport:
    """Play ``games`` games of ``players`` bots under ``ruleset``: one fresh ``bot_factory()``
    per game plays every seat (bots keep only public knowledge, so sharing one across seats
    leaks nothing).

    ``progress(done)`` is called after each game. Deterministic for a given seed and factory.
    Raises ``Unplayable`` (saying why) for a ruleset or table size that is not a game here.
    """
    check_playable(ruleset, players)
    engine = engine_for(ruleset)
    report = SimulationReport(games=games, players=players, seed=seed, bot=bot_name, ruleset=ruleset.text)
    report.wins = dict.fromkeys(sides_for(players, ruleset), 0)
    if ruleset.has(ModuleId.UA4):
        report.outbreaks = 0  # reported even when no game had one
    started = time.perf_counter()
    for index in range(games):
        rng, dice = game_seeds(seed, index, ruleset)
        seats = deal(players, rng, ruleset)
        record: list[GameCommand] = []
        game = play_game(seats, bot_factory(), dice, rng, record=record, ruleset=ruleset)
        report.commands += len(record)
        report.add(game, engine.finish(game))
        if progress is not None:
            progress(index + 1)
    report.seconds = time.perf_counter() - started
    return report
