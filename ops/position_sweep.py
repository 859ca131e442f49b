"""The heavier sweep behind the positions property test (tests/unit/rules/test_positions.py).

    .venv/bin/python -m ops.position_sweep --games 20 --points 10 --seed 1 [--players 5 8]

plays ``--games`` random games (random legal answers, faces drawn per die kind) for every module
set of the dice game the rules allow at every table size from 3 to 8 (or those given), and at
``--points`` random stable points of each writes the state as a position
(``positions.position_of``), starts a new game from it, and checks it stands where the original
stood (the same position written again, the same question) and plays the remaining inputs with
the very same events. Prints one line
per module set and size, then every mismatch (module set, size, seed, input index); exit
status 1 when there is one. One process, one core; the test keeps its own run to seconds.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys

from services.game.rules.dice import Decision, Game, GameCommand, PlayerId, RollDice, Seat, roles_for
from services.game.rules.dice.commands import PassWindow
from services.game.rules.dice.modules import ENGINE_MODULES, Rules, rules_for
from services.game.rules.dice.old_saloon.special_roles import Window
from services.game.rules.dice.positions import position_of
from services.game.rules.dice.vocabulary import BASE_ROLE_OF, SpecialRole
from services.game.rules.ruleset import ModuleId, refusal, ruleset_of

WINDOWS = frozenset(Window)


def module_sets(players: int) -> list[tuple[ModuleId, ...]]:
    modules = sorted(ENGINE_MODULES)
    every = (tuple(c) for n in range(len(modules) + 1) for c in itertools.combinations(modules, n))
    return [m for m in every if refusal(ruleset_of(m), players) is None]


def seats(players: int, rng: random.Random, rules: Rules, modules: tuple[ModuleId, ...]) -> list[Seat]:
    roles = list(roles_for(players))
    rng.shuffle(roles)
    excluded = set(ruleset_of(modules).excluded_characters())
    characters = rng.sample([c for c in rules.characters if c not in excluded], players)
    specials: list[SpecialRole | None] = [None] * players
    if ModuleId.OS3 in modules:
        cards = {role: [c for c, base in BASE_ROLE_OF.items() if base is role] for role in set(roles)}
        for deck in cards.values():
            rng.shuffle(deck)
        specials = [cards[role].pop() for role in roles]
    return [
        Seat(player=PlayerId(f"p{i + 1}"), role=roles[i], character=characters[i], special=specials[i])
        for i in range(players)
    ]


def answer(game: Game, rng: random.Random) -> GameCommand:
    question = game.awaiting
    assert question is not None
    if question.decision in WINDOWS:
        uses = [c for c in game.legal_commands() if not isinstance(c, PassWindow)]
        return rng.choice(uses) if uses and rng.random() < 0.3 else PassWindow(player=question.player)
    if question.decision is Decision.ROLL:
        turn = game.state.turn
        assert turn is not None
        faces = tuple(rng.choice(turn.kinds[d].faces) for d in question.dice)
        return RollDice(player=question.player, faces=faces)
    return rng.choice(list(game.legal_commands()))


def check_game(modules: tuple[ModuleId, ...], players: int, seed: int, points: int) -> list[int]:
    """The input indexes of the points at which a resumed game differs from the original."""
    rng, picker = random.Random(seed), random.Random(seed + 1)
    rules = rules_for(modules)
    table = seats(players, rng, rules, modules)
    game = Game.start(table, rules=rules)
    commands: list[GameCommand] = []
    taken = []
    while not game.is_over and len(commands) < 30_000:
        if picker.random() < 0.1 and len(taken) < points:
            taken.append((len(commands), len(game.events), position_of(game.state, table), game.awaiting))
        command = answer(game, rng)
        commands.append(command)
        game.play(command)
    bad = []
    for at, events_at, position, question in taken:
        try:
            resumed = Game.start(table, position, rules)
            same = position_of(resumed.state, table) == position and resumed.awaiting == question
            first = len(resumed.events)
            for command in commands[at:]:
                resumed.play(command)
            same = same and resumed.events[first:] == game.events[events_at:]
        except Exception:  # a refusal of a reached state is a mismatch too
            same = False
        if not same:
            bad.append(at)
    return bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--points", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="*", default=list(range(3, 9)), help="table sizes")
    args = parser.parse_args(argv)
    mismatches = []
    for players in args.players:
        for modules in module_sets(players):
            for game in range(args.games):
                seed = args.seed * 1_000_003 + game
                bad = check_game(modules, players, seed, args.points)
                mismatches += [(modules, players, seed, at) for at in bad]
            print(f"{' '.join(modules) or 'base'} x{players}: {args.games} games", flush=True)
    for modules, players, seed, at in mismatches:
        print(f"MISMATCH {' '.join(modules) or 'base'} x{players} seed {seed} at input {at}")
    print(f"{len(mismatches)} mismatches")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
