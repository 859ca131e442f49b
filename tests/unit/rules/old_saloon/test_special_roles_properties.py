"""Invariants of random OS3 games at 4 to 8 players, powers used at random."""

from __future__ import annotations

import random
from collections import Counter

import msgspec
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from services.game.rules.dice import (
    CHARACTERS,
    CharacterId,
    Decision,
    Game,
    GameCommand,
    RollDice,
    Seat,
    fold,
)
from services.game.rules.dice import events as ev
from services.game.rules.dice.events import PlayerPosition, Position
from services.game.rules.dice.evolve import evolve
from services.game.rules.dice.kinds import BASE
from services.game.rules.dice.old_saloon import special_roles as os3
from services.game.rules.dice.old_saloon.special_roles import CARDS_OF
from services.game.rules.dice.state import GameState
from services.game.rules.dice.vocabulary import Face, Role
from tests.unit.rules.old_saloon.os3_play import OS3_RULES, WINDOWS, random_os3_game
from tests.unit.rules.play import random_seats

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


def _without_implicit(events: list[ev.Event]) -> list[ev.Event]:
    return [
        os3.WindowPassed(window=e.window, player=e.player) if isinstance(e, os3.WindowPassed) else e
        for e in events
    ]


@games
@given(
    players=st.integers(min_value=4, max_value=8),
    seed=st.integers(min_value=0, max_value=2**32),
    use_rate=st.sampled_from([0.0, 0.3, 1.0]),
)
def test_a_game_entered_without_its_passes_is_the_same_game(players: int, seed: int, use_rate: float) -> None:
    """RULINGS-expansions §0 "May", §OS3: at a table the next input closes every role window still
    open. The inputs of a random game, every pass left out but those the game ends on (no input
    follows them), replay to the same events: the same windows close unused, marked implicit."""
    played = list(random_os3_game(players, seed, use_rate))
    inputs: list[GameCommand] = [command for _, command in played]
    game = played[-1][0]  # the generator's game, played to its end
    assert game.is_over
    last = max(i for i, c in enumerate(inputs) if not isinstance(c, os3.PassWindow))
    kept = [c for i, c in enumerate(inputs) if i > last or not isinstance(c, os3.PassWindow)]
    started = game.events[0]
    assert isinstance(started, ev.GameStarted)
    entered = Game.start(started.seats, started.position, rules=game.state.rules)
    for command in kept:
        entered.play(command)
    assert entered.is_over
    assert _without_implicit(entered.events) == game.events
    implicit = [e for e in entered.events if isinstance(e, os3.WindowPassed) and e.implicit]
    assert len(implicit) == len(inputs) - len(kept)
    assert entered.state == fold(entered.events, entered.state.rules)


# --- a game-ending loss event ends the game the same way whatever the modules ---------------------

_HEALERS = {
    CharacterId.SUZY_LAFAYETTE,
    CharacterId.VULTURE_SAM,
    CharacterId.SID_KETCHUM,
    CharacterId.JESSE_JONES,
}


_FACES = list(BASE.faces)
_WEIGHTS = [{Face.GATLING: 8, Face.ARROW: 3}.get(f, 1) for f in _FACES]
"""Gatlings and arrows come up more often than on a fair die: more games end on a gatling
fired by a player holding arrows (the case the ruling settles), or on an Indian attack."""


def _base_game_and_inputs(n: int, seed: int) -> tuple[Game, list[GameCommand], Position]:
    """A random base game from a position that lists the Sheriff at his base life (character + 2,
    as L'Ours would not give him), no beer ever aimed at him, no healer as the Sheriff."""
    rng = random.Random(seed)
    seats = random_seats(n, rng)
    sheriff = next(s for s in seats if s.role is Role.SHERIFF)
    if sheriff.character in _HEALERS:
        spare = next(c for c in CHARACTERS if c not in _HEALERS and c not in {s.character for s in seats})
        seats = [Seat(player=s.player, role=s.role, character=spare) if s is sheriff else s for s in seats]
        sheriff = next(s for s in seats if s.role is Role.SHERIFF)
    position = Position(
        players=(PlayerPosition(player=sheriff.player, life=CHARACTERS[sheriff.character].life + 2),)
    )
    game = Game.start(seats, position)
    inputs: list[GameCommand] = []
    while not game.is_over:
        assert len(inputs) < 20_000
        question = game.awaiting
        assert question is not None
        if question.decision is Decision.ROLL:
            command: GameCommand = RollDice(
                player=question.player, faces=tuple(rng.choices(_FACES, _WEIGHTS, k=len(question.dice)))
            )
        else:
            options = list(game.legal_commands())
            kind = question.decision is Decision.BEER_TARGET
            kept = [c for c in options if not (kind and getattr(c, "target", None) == sheriff.player)]
            command = rng.choice(kept or options)
        inputs.append(command)
        game.play(command)
    return game, inputs, position


def _end(game: Game) -> tuple[object, ...]:
    s = game.state
    players = tuple((p.id, p.life, p.arrows, p.alive) for p in s.players)
    result = game.result
    assert result is not None
    # OS3 names each player's special card in his result: the one difference allowed
    results = tuple(msgspec.structs.replace(r, special=msgspec.UNSET) for r in result.results)
    return players, s.arrow_pile, result.winning_side, result.winners, results


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(players=st.integers(min_value=4, max_value=8), seed=st.integers(min_value=0, max_value=2**32))
def test_an_inert_os3_ends_a_game_as_the_base_game_does(players: int, seed: int) -> None:
    """RULINGS "Damage, elimination": a game-ending gatling returns no arrows, the same whatever
    modules are played. OS3 is inert in a game where nobody uses a power (every window closed by
    the next input, the last ones passed) and no gain of the Sheriff's meets his max life (L'Ours'
    only other effect: his +1 max; his starting life is the position's). Held gains and held
    eliminations then change no outcome: the same inputs end the game with the same lives,
    arrows, pile and result as the base game."""
    base, inputs, position = _base_game_and_inputs(players, seed)
    started = base.events[0]
    assert isinstance(started, ev.GameStarted)
    rng = random.Random(seed)
    pools = {role: rng.sample(list(CARDS_OF[role]), len(CARDS_OF[role])) for role in Role}
    seats = [
        Seat(player=s.player, role=s.role, character=s.character, special=pools[s.role].pop())
        for s in started.seats
    ]
    os3_game = Game.start(seats, position, rules=OS3_RULES)
    for command in inputs:
        os3_game.play(command)
    while (q := os3_game.awaiting) is not None and q.decision in WINDOWS:
        os3_game.play(os3.PassWindow(player=q.player))  # the windows the game ends on
    sheriff = next(p for p in os3_game.state.players if p.role is Role.SHERIFF)
    base_max = sheriff.max_life - 1
    lives = fold_lives(os3_game.events, sheriff.id)
    assume(all(life <= base_max for life in lives))  # else L'Ours' +1 max changed a heal
    assert os3_game.is_over
    assert _end(os3_game) == _end(base)


def fold_lives(events: list[ev.Event], player: str) -> list[int]:
    """The life of ``player`` after each of his gains."""
    state = fold(events[:1], OS3_RULES)
    lives = []
    for e in events[1:]:
        evolve(state, e)
        if isinstance(e, ev.LifeGained) and e.player == player:
            lives.append(state.by_id[e.player].life)
    return lives
