"""Invariants of random legal play, for 3 to 8 players (hypothesis picks table size and seed)."""

from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.game.rules.dice import GameEvent, decide, fold
from services.game.rules.dice import events as ev
from services.game.rules.dice.evolve import evolve, initial_state
from services.game.rules.dice.state import GameState
from tests.unit.rules.play import play_to_end, random_game

ARROWS = 9
games = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(state: GameState) -> None:
    assert state.arrow_pile + sum(p.arrows for p in state.players) == ARROWS
    assert state.arrow_pile >= 1 or state.is_over
    for p in state.players:
        assert 0 <= p.life <= p.max_life, p
        if not p.alive:
            assert p.life == 0 and p.arrows == 0, p
        else:
            assert p.life > 0 or state.is_over, p


def touched_players(event: ev.Event) -> list[str]:
    match event:
        case ev.TargetChosen(target=target):
            return [target]
        case ev.LifeLost(player=player) | ev.LifeGained(player=player) | ev.ArrowTaken(player=player):
            return [player]
        case ev.ArrowsRemoved(from_players=players):
            return list(players)
        case _:
            return []


@games
@given(players=st.integers(min_value=3, max_value=8), seed=st.integers(min_value=0, max_value=2**32))
def test_random_play_keeps_the_invariants_and_every_game_ends(players: int, seed: int) -> None:
    game = None
    for game, _command in random_game(players, seed):
        question = game.awaiting
        assert question is not None
        assert game.state.by_id[question.player].alive, "the dead never act"
        check_invariants(game.state)
    assert game is not None and game.is_over
    check_invariants(game.state)
    result = game.result
    assert result is not None
    assert {r.player for r in result.results} == {p.id for p in game.state.players}
    assert all(r.won == (r.player in result.winners) for r in result.results)


@games
@given(players=st.integers(min_value=3, max_value=8), seed=st.integers(min_value=0, max_value=2**32))
def test_the_dead_are_never_targeted_and_the_fold_equals_the_live_state(players: int, seed: int) -> None:
    game = play_to_end(players, seed)
    assert game.is_over
    replayed = initial_state(game.events[0])  # type: ignore[arg-type]
    for event in game.events[1:]:
        for pid in touched_players(event):
            assert replayed.by_id[pid].alive, f"{type(event).__name__} touches eliminated {pid}"
        evolve(replayed, event)
    assert replayed == game.state
    assert fold(game.events) == game.state


@settings(max_examples=25, deadline=None)
@given(players=st.integers(min_value=3, max_value=8), seed=st.integers(min_value=0, max_value=2**32))
def test_decide_is_pure_and_agrees_with_play(players: int, seed: int) -> None:
    pending: list[ev.Event] | None = None
    seen = 0
    for game, command in random_game(players, seed):
        if pending is not None:
            assert game.events[seen:] == pending, "play must produce exactly what decide said"
        before = game.state.clone()
        pending = decide(game.state, command)
        assert game.state == before, "decide must not change the state it is given"
        seen = len(game.events)


@settings(max_examples=20, deadline=None)
@given(players=st.integers(min_value=3, max_value=8), seed=st.integers(min_value=0, max_value=2**32))
def test_events_and_commands_survive_json_and_text(players: int, seed: int) -> None:
    game = None
    for game, command in random_game(players, seed):  # noqa: B007 - the last game is checked below
        assert type(command).parse(str(command)) == command
        assert msgspec.json.decode(msgspec.json.encode(command), type=type(command)) == command
    assert game is not None
    encoded = msgspec.json.encode(game.events)
    assert msgspec.json.decode(encoded, type=list[GameEvent]) == game.events
