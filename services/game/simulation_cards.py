"""Card-game bot games from deal to result: ``bang-league simulate --game cards`` and its bench.

Games go through the card game's engine (``engines.engine_for(ruleset_of(..., "cards"))``) and
take their randomness as an online game does, from a seed: game ``i`` of a run seeded ``s`` has
the seed ``sha256(f"bang-league-sim-cards:{s}:{i}")``, which deals its seats (the ruleset's
``deal`` derivation, ``deal-1``) and answers every ``TABLE`` question (each deck's order, each
card taken at random from a hand) by its ``shuffles`` derivation (``shuffles-1``), exactly as
the server would for that seed; its bots draw any chance from ``random.Random(f"cards:{s}:{i}")``.
So a run is reproduced by its seed, one game of it by its index (``game_seeds``).

The report has the dice simulation's shape (``SimulationReport``), ``wins`` keyed by side:
``law``, ``outlaws``, ``renegade``.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Mapping

from services.game.bots.cards import CARD_BOTS, CardBot
from services.game.engines import engine_for
from services.game.engines.interface import GameEngine
from services.game.fairness.registry import deal_seats, fairness_for, shuffle_derivation
from services.game.rules.cards import commands as cmd
from services.game.rules.cards.events import Seat
from services.game.rules.cards.game import Game
from services.game.rules.cards.vocabulary import TABLE, CharacterId, PlayerId, Role, Side
from services.game.rules.ruleset import CardOption, GameType, Ruleset, ruleset_of
from services.game.simulation import GameDidNotEnd, SimulationReport

MAX_COMMANDS = 5_000
"""Far beyond any bot game (a seven-player heuristic game takes a few hundred commands)."""

CARD_PLAYER_COUNTS = range(4, 9)
"""4 to 7 players, and 8 with the two-Renegade option."""

SIDES: tuple[str, ...] = tuple(side.value for side in Side)

CardBotFactory = Callable[[], CardBot]


def ruleset_for(players: int) -> Ruleset:
    """The card game, with the two-Renegade option at 8 players."""
    return ruleset_of([CardOption.EIGHT_PLAYERS.value] if players == 8 else [], GameType.CARDS)


class SeededTable:
    """``TABLE``'s answers for one game, from its seed, by the ruleset's shuffle derivation."""

    __slots__ = ("_derivation", "_engine", "seed")

    def __init__(self, seed: bytes, ruleset: Ruleset) -> None:
        self.seed = seed
        self._engine: GameEngine = engine_for(ruleset)
        version = fairness_for(ruleset).shuffles_version
        assert version is not None, f"{ruleset.text} records no shuffle derivation"
        self._derivation = shuffle_derivation(version)

    def answer(self, game: Game) -> cmd.Command:
        need = self._engine.random_need(game)
        assert need is not None, "the table is not asked"
        if need.shuffle:
            order = self._derivation.shuffle(self.seed, need.draw, [int(c) for c in need.shuffle])
            return self._engine.supply(game, need, order)  # type: ignore[no-any-return]
        if need.pick:
            card = self._derivation.pick(self.seed, need.draw, [int(c) for c in need.pick])
            return self._engine.supply(game, need, (card,))  # type: ignore[no-any-return]
        raise ValueError("a simulated deck is shuffled in a known order: no card is named")


def game_seeds(seed: int, index: int, players: int = 5) -> tuple[random.Random, SeededTable]:
    """The bots' generator and the table of game ``index`` of run ``seed``."""
    rng = random.Random(f"cards:{seed}:{index}")
    key = hashlib.sha256(f"bang-league-sim-cards:{seed}:{index}".encode()).digest()
    return rng, SeededTable(key, ruleset_for(players))


def deal(players: int, table: SeededTable) -> list[Seat]:
    """Seats ``p1``..``pn`` dealt from the game's seed, as online (members ``m1``..``mn``)."""
    ruleset = ruleset_for(players)
    members = [f"m{k + 1}" for k in range(players)]
    _seated, seats = deal_seats(fairness_for(ruleset), table.seed, members, ruleset=ruleset)
    return [
        Seat(player=PlayerId(s.player), role=Role(s.role.value), character=CharacterId(s.character.value))
        for s in seats
    ]


def play_game(
    seats: list[Seat],
    bots: Mapping[PlayerId, CardBot] | CardBot,
    table: SeededTable,
    rng: random.Random,
    *,
    max_commands: int = MAX_COMMANDS,
    record: list[cmd.Command] | None = None,
) -> Game:
    """Play a card game to its end: the table answers every random input, the bots every seat's
    question. Raises ``GameDidNotEnd`` past ``max_commands`` commands."""
    game: Game = engine_for(ruleset_for(len(seats))).start(seats)  # type: ignore[assignment]
    per_player = bots if isinstance(bots, Mapping) else None
    played = 0
    while not game.is_over:
        question = game.awaiting
        assert question is not None
        if question.player == TABLE:
            command = table.answer(game)
        else:
            bot = bots if per_player is None else per_player[question.player]
            command = bot.choose(game, question, rng)  # type: ignore[union-attr]
        game.play(command)
        if record is not None:
            record.append(command)
        played += 1
        if played >= max_commands and not game.is_over:
            raise GameDidNotEnd(
                f"card game of {len(seats)} players still running after {played} commands; "
                f"last: {command}, now awaiting {game.awaiting}"
            )
    return game


def simulate(
    games: int,
    players: int,
    seed: int,
    bot_factory: CardBotFactory,
    *,
    bot_name: str = "",
    progress: Callable[[int], None] | None = None,
) -> SimulationReport:
    """Play ``games`` card games of ``players`` bots: one fresh ``bot_factory()`` per game
    plays every seat (a bot keeps only public knowledge). Deterministic for a seed."""
    if players not in CARD_PLAYER_COUNTS:
        raise ValueError(f"the card game is for 4 to 7 players (8 with two Renegades), not {players}")
    report = SimulationReport(
        games=games, players=players, seed=seed, bot=bot_name, ruleset=ruleset_for(players).text
    )
    report.wins = dict.fromkeys(SIDES, 0)
    started = time.perf_counter()
    for index in range(games):
        rng, table = game_seeds(seed, index, players)
        record: list[cmd.Command] = []
        game = play_game(deal(players, table), bot_factory(), table, rng, record=record)
        result = game.result
        assert result is not None
        report.finished += 1
        report.wins[result.winner.value] += 1
        report.turns += result.turn
        report.commands += len(record)
        report.events += len(game.events)
        if progress is not None:
            progress(index + 1)
    report.seconds = time.perf_counter() - started
    return report


def bot_factory(name: str) -> CardBotFactory:
    """The card bot of ``name`` (``heuristic``, ``random``)."""
    return CARD_BOTS[name]
