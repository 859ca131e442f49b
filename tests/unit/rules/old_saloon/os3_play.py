"""Random legal play of OS3 games for tests: specials dealt, windows answered at random."""

from __future__ import annotations

import random
from collections.abc import Iterator

from services.game.rules.dice import CHARACTERS, Game, GameCommand, PlayerId, RollDice, Seat, roles_for
from services.game.rules.dice.kinds import BASE
from services.game.rules.dice.modules import Rules, rules_for
from services.game.rules.dice.old_saloon.special_roles import CARDS_OF, PassWindow, Window
from services.game.rules.dice.vocabulary import Role
from services.game.rules.ruleset import ModuleId

OS3_RULES: Rules = rules_for([ModuleId.OS3])
WINDOWS = {w.value for w in Window}


def os3_seats(n: int, rng: random.Random) -> list[Seat]:
    roles = list(roles_for(n))
    rng.shuffle(roles)
    characters = rng.sample(list(CHARACTERS), n)
    pools = {role: rng.sample(list(CARDS_OF[role]), len(CARDS_OF[role])) for role in Role}
    return [
        Seat(player=PlayerId(f"p{i + 1}"), role=role, character=characters[i], special=pools[role].pop())
        for i, role in enumerate(roles)
    ]


def random_command(game: Game, rng: random.Random, use_rate: float) -> GameCommand:
    question = game.awaiting
    assert question is not None
    if question.decision == "roll":
        return RollDice(player=question.player, faces=tuple(rng.choice(BASE.faces) for _ in question.dice))
    options = list(game.legal_commands())
    if question.decision in WINDOWS:
        # drawn at every window, used or not, so the draws never depend on who holds a card
        if rng.random() < use_rate:
            uses = [c for c in options if not isinstance(c, PassWindow)]
            if uses:
                return rng.choice(uses)
        return options[0]
    return rng.choice(options)


def random_os3_game(
    n: int, seed: int, use_rate: float = 0.5, max_commands: int = 20_000
) -> Iterator[tuple[Game, GameCommand]]:
    rng = random.Random(seed)
    game = Game.start(os3_seats(n, rng), rules=OS3_RULES)
    for _ in range(max_commands):
        if game.is_over:
            return
        command = random_command(game, rng, use_rate)
        yield game, command
        game.play(command)
    raise AssertionError(f"OS3 game with {n} players (seed {seed}) did not end in {max_commands} commands")
