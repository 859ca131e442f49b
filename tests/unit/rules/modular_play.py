"""Random legal play under any module set: seats from the ruleset's pool, faces drawn per die
kind, every other decision drawn from the legal answers."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from services.game.rules.dice import Decision, Game, GameCommand, PlayerId, RollDice, Seat, roles_for
from services.game.rules.dice.commands import PassWindow
from services.game.rules.dice.modules import ENGINE_MODULES, Rules, rules_for
from services.game.rules.dice.old_saloon.special_roles import Window
from services.game.rules.dice.vocabulary import BASE_ROLE_OF, SpecialRole
from services.game.rules.ruleset import MODULES, ModuleId, ruleset_of

WINDOWS = frozenset(Window)


def playable_modules(players: int) -> list[ModuleId]:
    """The modules the engine plays that a table of ``players`` may use."""
    # sorted: registration order follows import order, which differs between test processes
    return sorted(m for m in ENGINE_MODULES if MODULES[m].min_players <= players)


def random_module_set(rng: random.Random, players: int) -> tuple[ModuleId, ...]:
    return tuple(sorted(m for m in playable_modules(players) if rng.random() < 0.5))


def pool(rules: Rules, modules: Sequence[ModuleId]) -> list[str]:
    excluded = set(ruleset_of(modules).excluded_characters())
    return [c for c in rules.characters if c not in excluded]


def random_seats(n: int, rng: random.Random, rules: Rules, modules: Sequence[ModuleId]) -> list[Seat]:
    roles = list(roles_for(n))
    rng.shuffle(roles)
    characters = rng.sample(pool(rules, modules), n)
    specials: list[SpecialRole | None] = [None] * n
    if ModuleId.OS3 in modules:  # each seat a card of its base role, each card once
        cards = {role: [c for c, base in BASE_ROLE_OF.items() if base is role] for role in set(roles)}
        for deck in cards.values():
            rng.shuffle(deck)
        specials = [cards[role].pop() for role in roles]
    return [
        Seat(
            player=PlayerId(f"p{i + 1}"),
            role=roles[i],
            character=characters[i],  # type: ignore[arg-type]
            special=specials[i],
        )
        for i in range(n)
    ]


def random_command(game: Game, rng: random.Random) -> GameCommand:
    question = game.awaiting
    assert question is not None
    if question.decision in WINDOWS:  # a role window: a power now and then, else the pass
        uses = [c for c in game.legal_commands() if not isinstance(c, PassWindow)]
        if uses and rng.random() < 0.3:
            return rng.choice(uses)
        return PassWindow(player=question.player)
    if question.decision is Decision.ROLL:
        turn = game.state.turn
        assert turn is not None
        faces = tuple(rng.choice(turn.kinds[die].faces) for die in question.dice)
        return RollDice(player=question.player, faces=faces)
    return rng.choice(list(game.legal_commands()))


def random_game(
    n: int, seed: int, modules: Sequence[ModuleId], max_commands: int = 30_000
) -> Iterator[tuple[Game, GameCommand]]:
    """Yield (game, command) before each command is played, until the game ends."""
    rng = random.Random(seed)
    rules = rules_for(modules)
    game = Game.start(random_seats(n, rng, rules, modules), rules=rules)
    for _ in range(max_commands):
        if game.is_over:
            return
        command = random_command(game, rng)
        yield game, command
        game.play(command)
    raise AssertionError(f"{n} players, modules {modules}, seed {seed}: no end in {max_commands} commands")
