"""Random legal play over random module sets with Undead or Alive (UA2 always, UA1 and UA3 half
the time each; and UA1+UA2+UA3 alone) mixed with Old Saloon, 3 to 8 players: the Rage cards (18)
and the wound tokens (15) are conserved after every command, no life goes above its maximum, a
player holds at most one wound token of each symbol, only living players hold cards or tokens, a
turn's tokens are back at its end, every game ends, and the fold of the events is the live game."""

from __future__ import annotations

import random

import pytest

from services.game.rules.dice import fold
from services.game.rules.dice.modules import rules_for
from services.game.rules.ruleset import ModuleId
from tests.unit.rules.modular_play import playable_modules, random_game

OLD_SALOON = (ModuleId.OS1, ModuleId.OS2, ModuleId.OS3, ModuleId.OS4, ModuleId.OS5)


def _modules(rng: random.Random, players: int) -> tuple[ModuleId, ...]:
    chosen = {ModuleId.UA2}
    if rng.random() < 0.5:
        chosen.add(ModuleId.UA1)
    if rng.random() < 0.5:
        chosen.add(ModuleId.UA3)
    chosen |= {m for m in OLD_SALOON if m in playable_modules(players) and rng.random() < 0.5}
    return tuple(sorted(chosen))


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("seed", range(4))
def test_cards_and_tokens_are_conserved_and_every_game_ends(players: int, seed: int) -> None:
    _check_conserved(players, seed, _modules(random.Random(f"{players}:{seed}"), players))


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("seed", range(3))
def test_with_the_ua3_posse_cards_and_tokens_are_conserved_and_every_game_ends(
    players: int, seed: int
) -> None:
    _check_conserved(players, 50 + seed, (ModuleId.UA1, ModuleId.UA2, ModuleId.UA3))


def _check_conserved(players: int, seed: int, modules: tuple[ModuleId, ...]) -> None:
    game = None
    for game, _command in random_game(players, 900 + seed, modules):
        state = game.state
        assert all(p.life <= p.max_life for p in state.players)
        rage = state.rage
        assert rage is not None
        held = [c for h in rage.hands.values() for c in h]
        assert sorted(rage.pile + rage.discard + held) == sorted(rage.order)
        assert all(state.by_id[p].alive for p, h in rage.hands.items() if h)
        duels = state.duels
        if duels is not None:
            tokens = sum(duels.pile.values()) + sum(len(h) for h in duels.held.values())
            assert tokens == 15 and min(duels.pile.values()) >= 0
            for p, h in duels.held.items():
                assert len(set(h)) == len(h), f"{p} holds two tokens of one symbol: {h}"
                assert state.by_id[p].alive or not h
            if state.turn is None:  # between turns: the last active player's tokens are back
                last = state.players[state.last_active_seat]
                assert not duels.held.get(last.id) or not last.alive
    assert game is not None and game.is_over, modules
    folded = fold(game.events, rules_for(modules))
    assert folded.rage == game.state.rage and folded.duels == game.state.duels
    assert folded.result == game.state.result
