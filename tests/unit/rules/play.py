"""Random legal play for tests: faces and decisions drawn from a seeded generator."""

from __future__ import annotations

import random
from collections.abc import Iterator

from services.game.rules.dice import (
    Decision,
    Game,
    GameCommand,
    PlayerId,
    RollDice,
    Seat,
    roles_for,
)
from services.game.rules.dice.characters import CHARACTERS
from services.game.rules.dice.kinds import BASE

FACES = list(BASE.faces)


def random_seats(n: int, rng: random.Random) -> list[Seat]:
    roles = list(roles_for(n))
    rng.shuffle(roles)
    characters = rng.sample(list(CHARACTERS), n)
    return [Seat(player=PlayerId(f"p{i + 1}"), role=roles[i], character=characters[i]) for i in range(n)]


def random_command(game: Game, rng: random.Random) -> GameCommand:
    question = game.awaiting
    assert question is not None
    if question.decision is Decision.ROLL:
        return RollDice(player=question.player, faces=tuple(rng.choice(FACES) for _ in question.dice))
    return rng.choice(list(game.legal_commands()))


def random_game(n: int, seed: int, max_commands: int = 20_000) -> Iterator[tuple[Game, GameCommand]]:
    """Yield (game, command) before each command is played."""
    rng = random.Random(seed)
    game = Game.start(random_seats(n, rng))
    for _ in range(max_commands):
        if game.is_over:
            return
        command = random_command(game, rng)
        yield game, command
        game.play(command)
    raise AssertionError(f"game with {n} players (seed {seed}) did not end in {max_commands} commands")


def play_to_end(n: int, seed: int) -> Game:
    """Play a random game to its end and return it."""
    game: Game | None = None
    for game, _command in random_game(n, seed):  # noqa: B007 - the last game is the answer
        pass
    assert game is not None
    return game
