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


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(min_value=4, max_value=8), seed=st.integers(min_value=0, max_value=2**32))
def test_bots_answer_every_window_legally_and_use_powers(players: int, seed: int) -> None:
    import random

    from services.game.rules.dice import Game, RollDice
    from services.game.rules.dice.kinds import BASE
    from tests.unit.rules.old_saloon.os3_play import OS3_RULES, os3_seats

    rng = random.Random(seed)
    game = Game.start(os3_seats(players, rng), rules=OS3_RULES)
    while not game.is_over:
        q = game.awaiting
        assert q is not None
        if q.decision in WINDOWS:
            command = os3.window_answer(game.state, q)
            assert command in game.legal_commands()
        elif q.decision == "roll":
            command = RollDice(player=q.player, faces=tuple(rng.choice(BASE.faces) for _ in q.dice))
        else:
            command = rng.choice(list(game.legal_commands()))
        game.play(command)  # type: ignore[arg-type]
        assert len(game.events) < 50_000


def test_bots_use_powers_over_many_games() -> None:
    import random

    from services.game.rules.dice import Game, RollDice
    from services.game.rules.dice.kinds import BASE
    from tests.unit.rules.old_saloon.os3_play import OS3_RULES, os3_seats

    used: Counter[str] = Counter()
    for seed in range(40):
        rng = random.Random(seed)
        game = Game.start(os3_seats(4 + seed % 5, rng), rules=OS3_RULES)
        while not game.is_over:
            q = game.awaiting
            assert q is not None
            if q.decision in WINDOWS:
                command = os3.window_answer(game.state, q)
            elif q.decision == "roll":
                command = RollDice(player=q.player, faces=tuple(rng.choice(BASE.faces) for _ in q.dice))
            else:
                command = rng.choice(list(game.legal_commands()))
            game.play(command)  # type: ignore[arg-type]
        used.update(e.role for e in game.events if isinstance(e, os3.RolePowerUsed))
    assert len(used) >= 5, used  # bots reach for most powers, not just the pass
