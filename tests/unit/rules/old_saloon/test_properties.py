"""Properties of random games under random Old Saloon module sets (the base game's own are in
tests/unit/rules/test_properties.py): every arrow token is conserved, the Chief's included;
life stays within bounds; the fold of the events equals the live state; every game ends."""

from __future__ import annotations

import random

import pytest

from services.game.rules.dice import Game
from services.game.rules.dice.modules import rules_for
from tests.unit.rules.modular_play import random_game, random_module_set

CASES = [(n, seed) for n in range(3, 9) for seed in range(6)]


def _check_tokens(game: Game) -> None:
    s = game.state
    held = sum(p.arrows for p in s.players)
    assert s.arrow_pile + held == s.arrow_total
    if s.rules.arrow_choice is not None:  # OS2: the Chief's Arrow is in exactly one place
        assert (s.chief_holder is None) == s.chief_in_pile
        if s.chief_holder is not None:
            assert s.by_id[s.chief_holder].arrows >= 1 and s.by_id[s.chief_holder].alive
    for p in s.players:
        assert p.arrows >= 0
        assert 0 <= p.life <= p.max_life
        assert p.alive or (p.life == 0 and p.arrows == 0)


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_random_module_games_keep_every_invariant_and_end(players: int, seed: int) -> None:
    modules = random_module_set(random.Random(seed * 31 + players), players)
    last: Game | None = None
    for game, _command in random_game(players, 1000 * players + seed, modules):
        _check_tokens(game)
        last = game
    assert last is not None and last.is_over
    _check_tokens(last)
    replayed = Game.replay(last.events, rules_for(modules))
    assert replayed.state == last.state


@pytest.mark.parametrize("players", range(3, 9))
def test_every_module_together_plays_to_the_end(players: int) -> None:
    from tests.unit.rules.modular_play import playable_modules

    modules = tuple(sorted(playable_modules(players)))
    for seed in range(3):
        last = None
        for last, _command in random_game(players, seed, modules):
            _check_tokens(last)
        assert last is not None and last.is_over
        assert Game.replay(last.events, rules_for(modules)).state == last.state
