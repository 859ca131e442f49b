"""Card-game bot games from deal to result: ``bang-league simulate --game cards`` and its bench.

Everything random comes from the run's seed. Game ``i`` of a run seeded ``s``:

- deals (roles shuffled, characters drawn) and feeds its bots from
  ``random.Random(f"cards:{s}:{i}")``;
- answers ``TABLE`` (every shuffle's order, every card taken at random from a hand) from the
  byte stream ``streams.ByteStream(sha256(f"bang-league-sim-cards:{s}:{i}"), b"sim-cards-table")``:
  a shuffle is ``ByteStream.shuffle`` of the cards asked, a random card is ``hand[below(len(hand))]``
  (``SeededTable``).

So a run is reproduced exactly by its seed, one game of it by its index (``game_seeds``). The
report has the dice simulation's shape (``SimulationReport``), ``wins`` keyed by side: ``law``,
``outlaws``, ``renegade``.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Mapping

from services.game.bots.cards import CARD_BOTS, CardBot
from services.game.fairness.streams import ByteStream
from services.game.rules.cards import commands as cmd
from services.game.rules.cards.awaiting import Awaiting
from services.game.rules.cards.events import Seat
from services.game.rules.cards.game import Game
from services.game.rules.cards.setup import EIGHT_PLAYER_ROLES, ROLES_BY_PLAYER_COUNT
from services.game.rules.cards.vocabulary import TABLE, CharacterId, Decision, PlayerId, Side
from services.game.simulation import GameDidNotEnd, SimulationReport

MAX_COMMANDS = 5_000
"""Far beyond any bot game (a seven-player heuristic game takes a few hundred commands)."""

CARD_PLAYER_COUNTS = range(4, 9)
"""4 to 7 players, and 8 with the two-Renegade option."""

SIDES: tuple[str, ...] = tuple(side.value for side in Side)
TABLE_LABEL = b"sim-cards-table"

CardBotFactory = Callable[[], CardBot]


class SeededTable:
    """``TABLE``'s answers for one simulated game, from its own byte stream."""

    __slots__ = ("_stream",)

    def __init__(self, key: bytes) -> None:
        self._stream = ByteStream(key, TABLE_LABEL)

    def answer(self, game: Game, question: Awaiting) -> cmd.Command:
        if question.decision is Decision.SHUFFLE:
            return cmd.ShuffleDeck(player=TABLE, order=tuple(self._stream.shuffle(question.cards)))
        if question.decision is Decision.RANDOM_CARD:
            assert question.from_player is not None
            hand = sorted(game.state.player(question.from_player).hand)
            return cmd.PickRandomCard(player=TABLE, card=hand[self._stream.below(len(hand))])
        raise ValueError(f"a simulated deck is in a known order: no {question.decision.value}")


def game_seeds(seed: int, index: int) -> tuple[random.Random, SeededTable]:
    """The generator (deal, bots) and the table's answers of game ``index`` of run ``seed``."""
    rng = random.Random(f"cards:{seed}:{index}")
    key = hashlib.sha256(f"bang-league-sim-cards:{seed}:{index}".encode()).digest()
    return rng, SeededTable(key)


def deal(n: int, rng: random.Random) -> list[Seat]:
    """Seats ``p1``..``pn``: the role table shuffled, distinct random characters."""
    roles = list(EIGHT_PLAYER_ROLES if n == 8 else ROLES_BY_PLAYER_COUNT[n])
    rng.shuffle(roles)
    characters = rng.sample(list(CharacterId), n)
    return [
        Seat(player=PlayerId(f"p{i + 1}"), role=role, character=ch)
        for i, (role, ch) in enumerate(zip(roles, characters, strict=True))
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
    game = Game.start(seats, eight_players=len(seats) == 8)
    per_player = bots if isinstance(bots, Mapping) else None
    played = 0
    while not game.is_over:
        question = game.awaiting
        assert question is not None
        if question.player == TABLE:
            command = table.answer(game, question)
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
    report = SimulationReport(games=games, players=players, seed=seed, bot=bot_name, ruleset="cards")
    report.wins = dict.fromkeys(SIDES, 0)
    started = time.perf_counter()
    for index in range(games):
        rng, table = game_seeds(seed, index)
        record: list[cmd.Command] = []
        game = play_game(deal(players, rng), bot_factory(), table, rng, record=record)
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
