"""Random legal play with OS5 at 5 to 8 players (hypothesis picks table size and seed): every game
ends, the fold of the events equals the live state, life and arrows stay within bounds, and the
Ghost acts only on his own turn, only to roll or give a token; heuristic bots play the Ghost."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, Union

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.game.bots import HeuristicBot
from services.game.rules.dice import Decision, Game, GameCommand, GameEvent, RollDice, fold
from services.game.rules.dice import events as ev
from services.game.rules.dice.evolve import evolve, initial_state
from services.game.rules.dice.kinds import BASE
from services.game.rules.dice.modules import rules_for
from services.game.rules.dice.old_saloon.ghost import EVENTS, GHOST_GIVE, BecameGhost, GhostTokenGiven
from services.game.rules.dice.state import GameState
from services.game.rules.dice.vocabulary import Role, Side
from services.game.rules.ruleset import ModuleId
from services.game.simulation import deal, game_seeds
from tests.unit.rules.test_properties import touched_players

RULES = rules_for([ModuleId.OS5])
ARROWS = 9
OS5_EVENT = Union[GameEvent, Union[tuple(EVENTS)]]  # type: ignore[valid-type]  # noqa: UP007
games = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
tables = st.integers(min_value=5, max_value=8)
seeds = st.integers(min_value=0, max_value=2**32)


def random_game(n: int, seed: int, max_commands: int = 20_000) -> Iterator[tuple[Game, GameCommand]]:
    rng = random.Random(seed)
    game = Game.start(deal(n, rng), rules=RULES)
    for _ in range(max_commands):
        if game.is_over:
            return
        q = game.awaiting
        assert q is not None
        if q.decision is Decision.ROLL:
            faces = tuple(rng.choice(BASE.faces) for _ in q.dice)
            command: GameCommand = RollDice(player=q.player, faces=faces)
        else:
            command = rng.choice(list(game.legal_commands()))
        yield game, command
        game.play(command)
    raise AssertionError(f"OS5 game with {n} players (seed {seed}) did not end in {max_commands} commands")


def check_invariants(state: GameState) -> None:
    assert state.arrow_pile + sum(p.arrows for p in state.players) == ARROWS
    ghosts = [p for p in state.players if p.ghost]
    assert len(ghosts) <= 1, "one Ghost per game"
    assert all(p.role is not Role.SHERIFF and not p.alive for p in ghosts)
    held: list[Any] = []
    for p in state.players:
        assert 0 <= p.life <= p.max_life, p
        if not p.alive:
            assert p.life == 0 and p.arrows == 0 and not p.ghost_gift, p
        if p.ghost_gift:
            assert len(p.ghost_gift) in (1, 2) and len(set(p.ghost_gift)) == 1, p
            held.append(p.ghost_gift[0])
            if len(p.ghost_gift) == 2:
                held.append("x2")
    assert len(held) == len(set(held)) <= 7, f"a Ghost token is in two places: {held}"


def check_who_acts(game: Game) -> None:
    q = game.awaiting
    t = game.state.turn
    assert q is not None and t is not None
    p = game.state.by_id[q.player]
    if p.alive:
        assert q.decision != GHOST_GIVE
        return
    # only the Ghost acts while out, on his own turn (not the one he fell in), to roll or give
    assert p.ghost_since is not None, f"{p.id} is out and yet asked {q.decision}"
    assert t.player == p.id and t.number > p.ghost_since
    assert q.decision in (Decision.ROLL, GHOST_GIVE)
    if q.decision is Decision.ROLL:
        assert q.dice == (0, 1) and t.rolls_used == 0


@games
@given(players=tables, seed=seeds)
def test_random_play_keeps_the_invariants_and_every_game_ends(players: int, seed: int) -> None:
    game = None
    for game, _command in random_game(players, seed):
        check_who_acts(game)
        check_invariants(game.state)
    assert game is not None and game.is_over
    check_invariants(game.state)
    result = game.result
    assert result is not None
    assert all(r.won == (r.player in result.winners) for r in result.results)
    for r in result.results:
        is_ghost = game.state.by_id[r.player].ghost
        assert r.ghost is (True if is_ghost else msgspec.UNSET)
        if is_ghost:
            assert not r.alive
            assert r.won == (r.side is result.winning_side and r.side is not Side.RENEGADE)


@games
@given(players=tables, seed=seeds)
def test_the_fold_equals_the_live_state_and_the_out_are_never_touched(players: int, seed: int) -> None:
    game = None
    for game, _command in random_game(players, seed):  # noqa: B007 - the last game is checked below
        pass
    assert game is not None and game.is_over
    replayed = initial_state(game.events[0], RULES)  # type: ignore[arg-type]
    for event in game.events[1:]:
        players_touched = touched_players(event)
        if isinstance(event, GhostTokenGiven):
            players_touched = [event.target]
        for pid in players_touched:
            assert replayed.by_id[pid].alive, f"{type(event).__name__} touches eliminated {pid}"
        evolve(replayed, event)
    assert replayed == game.state
    assert fold(game.events, RULES) == game.state
    assert sum(isinstance(e, BecameGhost) for e in game.events) <= 1
    encoded = msgspec.json.encode(game.events)
    assert msgspec.json.decode(encoded, type=list[OS5_EVENT]) == game.events  # type: ignore[valid-type]


@settings(max_examples=20, deadline=None)
@given(players=tables, seed=seeds)
def test_ghost_gives_survive_their_text_form(players: int, seed: int) -> None:
    for _game, command in random_game(players, seed):
        assert type(command).parse(str(command)) == command


def test_heuristic_bots_play_the_ghost_to_the_end() -> None:
    ghosts = gifts = 0
    for index in range(24):
        rng, dice = game_seeds(5, index)
        game = Game.start(deal(5 + index % 4, rng), rules=RULES)
        bot = HeuristicBot()
        while not game.is_over:
            q = game.awaiting
            assert q is not None
            if q.decision is Decision.ROLL:
                game.play(RollDice(player=q.player, faces=dice.roll(len(q.dice))))
            else:
                command = bot.choose(game, q, rng)
                assert command in game.legal_commands()
                game.play(command)
        ghosts += any(isinstance(e, BecameGhost) for e in game.events)
        gifts += sum(isinstance(e, GhostTokenGiven) for e in game.events)
        assert isinstance(game.events[-1], ev.GameEnded)
    assert ghosts >= 12 and gifts >= ghosts, (ghosts, gifts)
