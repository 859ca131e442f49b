"""Random legal play over random module sets with UA4 (the zombie outbreak) mixed with every other
module the table size allows, 4 to 8 players: the 11 Boneyard cards are conserved after every
command (face down, face up, out of the game), a zombie never gains life and never holds an arrow,
nobody is ever above his maximum, an eliminated player after the outbreak never plays again,
every game ends (a good share of them after an outbreak), and the fold of the events is the live
game."""

from __future__ import annotations

import random

import pytest

from services.game.rules.dice import fold
from services.game.rules.dice.modules import rules_for
from services.game.rules.dice.vocabulary import Side
from services.game.rules.ruleset import ModuleId
from tests.unit.rules.modular_play import playable_modules, random_game


def _modules(rng: random.Random, players: int) -> tuple[ModuleId, ...]:
    chosen = {ModuleId.UA4} | {m for m in playable_modules(players) if rng.random() < 0.5}
    if ModuleId.UA1 in chosen:
        chosen.add(ModuleId.UA2)  # UA1 needs UA2
    chosen.discard(ModuleId.UA5)  # a series of games, not one game's rules
    return tuple(sorted(chosen))


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
@pytest.mark.parametrize("seed", range(10))
def test_boneyard_conserved_zombies_never_heal_nor_hold_arrows_and_every_game_ends(
    players: int, seed: int
) -> None:
    modules = _modules(random.Random(f"ua4:{players}:{seed}"), players)
    game = None
    life: dict[str, int] = {}
    out_for_good: set[str] = set()
    for game, _command in random_game(players, 4000 + seed, modules):
        state = game.state
        b = state.boneyard
        assert b is not None
        assert sorted(b.pile + b.shown + b.removed) == sorted(b.order), "a Boneyard card went missing"
        assert len(set(b.pile + b.shown + b.removed)) == 11
        assert all(p.life <= p.max_life for p in state.players)
        if state.outbreak:
            assert not b.pile and not b.shown  # the Boneyard is out of the game
            for p in state.players:
                if p.zombie:
                    assert p.arrows == 0, f"zombie {p.id} holds an arrow"
                    assert state.chief_holder != p.id
                    if p.id in life:
                        assert p.life <= life[p.id], f"zombie {p.id} gained life"
                    life[p.id] = p.life
                if not p.alive:
                    out_for_good.add(p.id)
            if state.turn is not None:
                assert state.turn.player not in out_for_good, "a player out for good plays a turn"
            assert not any(p.ghost for p in state.players)  # the Ghost became a zombie
    assert game is not None and game.is_over, modules
    result = game.state.result
    assert result is not None
    if game.state.outbreak:
        assert result.winning_side in (Side.ZOMBIES, Side.SURVIVORS)
        assert all(r.zombie is not None for r in result.results)
        zombies = {r.player for r in result.results if r.side in (Side.ZOMBIES, Side.ZOMBIE_MASTER)}
        assert (set(result.winners) == zombies) == (result.winning_side is Side.ZOMBIES)
    else:
        assert result.winning_side not in (Side.ZOMBIES, Side.SURVIVORS)
    folded = fold(game.events, rules_for(modules))
    assert folded.boneyard == game.state.boneyard
    assert folded.result == game.state.result
    assert [p.clone() for p in folded.players] == [p.clone() for p in game.state.players]


def test_the_random_games_reach_the_outbreak() -> None:
    # a guard on the property test above: its games must reach the zombie rules, not only the base
    outbreaks = 0
    for seed in range(6):
        games = [game for game, _command in random_game(6, 4000 + seed, (ModuleId.UA4,))]
        outbreaks += games[-1].state.outbreak
    assert outbreaks >= 2
