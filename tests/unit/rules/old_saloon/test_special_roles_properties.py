"""Invariants of random OS3 games at 4 to 8 players, powers used at random."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.game.rules.dice import events as ev
from services.game.rules.dice import fold
from services.game.rules.dice.old_saloon import special_roles as os3
from services.game.rules.dice.state import GameState
from tests.unit.rules.old_saloon.os3_play import WINDOWS, random_os3_game

games = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check(state: GameState) -> None:
    assert state.arrow_pile + sum(p.arrows for p in state.players) == 9
    for p in state.players:
        assert 0 <= p.life <= p.max_life, p
        if not p.alive:
            assert p.life == 0 and p.arrows == 0, p
    assert sum(1 for p in state.players if p.role == "sheriff") == 1


@games
@given(
    players=st.integers(min_value=4, max_value=8),
    seed=st.integers(min_value=0, max_value=2**32),
    use_rate=st.sampled_from([0.0, 0.3, 1.0]),
)
def test_random_os3_games_end_fold_and_spend_each_power_once(
    players: int, seed: int, use_rate: float
) -> None:
    game = None
    for game, command in random_os3_game(players, seed, use_rate):
        check(game.state)
        q = game.awaiting
        assert q is not None
        if q.decision not in WINDOWS:
            assert game.state.by_id[q.player].alive, "only the living decide"
        if isinstance(command, os3.UseRole):
            assert game.state.by_id[command.player].alive, "only the living use a power"
    assert game is not None and game.is_over
    check(game.state)
    assert fold(game.events, game.state.rules) == game.state
    users = [e.player for e in game.events if isinstance(e, os3.RolePowerUsed | os3.RoleUseCancelled)]
    assert all(n == 1 for n in Counter(users).values()), "a power is used once per game"
    special = game.state.special
    assert special is not None
    for e in game.events:
        if isinstance(e, os3.RolePowerUsed):
            assert special.cards[e.player] is e.role, "only the holder uses a power"
    result = game.result
    assert result is not None and {r.player for r in result.results} == {p.id for p in game.state.players}
    assert sum(isinstance(e, ev.GameEnded) for e in game.events) == 1
