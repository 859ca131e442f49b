"""Positions of any point a game reaches (docs/game-records.md, ``position``): written from a
random game of every module set at random stable points, a position reads back the same (JSON
and the record format, which the schema accepts), a new game started from it stands where the
original stood (the same position written again, the same question, the same legal answers)
and, given the remaining inputs, plays on with exactly the same events.

Every module set the engine plays is played at least once (``MODULE_SETS``); hypothesis adds
random sets and table sizes (derandomised in CI, tests/conftest.py)."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.game.records import read_record, record_to_object
from services.game.records.model import GameRecord
from services.game.rules.dice import Game, GameCommand, RuleError, Seat
from services.game.rules.dice import events as ev
from services.game.rules.dice.modules import rules_for
from services.game.rules.dice.positions import position_of
from services.game.rules.ruleset import MODULES, ModuleId, refusal, ruleset_of
from tests.unit.records.test_schema import VALIDATOR
from tests.unit.rules.modular_play import random_command, random_seats

OS = (ModuleId.OS1, ModuleId.OS2, ModuleId.OS3, ModuleId.OS4, ModuleId.OS5)
UA = (ModuleId.UA1, ModuleId.UA2, ModuleId.UA3, ModuleId.UA4, ModuleId.UA5)
MODULE_SETS: list[tuple[ModuleId, ...]] = [
    (),
    *((m,) for m in OS),
    OS,
    (ModuleId.UA2,),
    (ModuleId.UA1, ModuleId.UA2),
    (ModuleId.UA3,),
    (ModuleId.UA4,),
    (ModuleId.UA5,),
    UA,
    (ModuleId.OS3, ModuleId.OS5, ModuleId.UA4),
    (ModuleId.OS2, ModuleId.OS4, ModuleId.UA1, ModuleId.UA2, ModuleId.UA3),
    OS + UA,
]
"""The base game, each module alone (UA1 needs UA2), each expansion whole, and mixes of both."""

POINTS = 6
"""Stable points checked per game."""


def _table(modules: tuple[ModuleId, ...], rng: random.Random) -> int:
    least = max([3, *(MODULES[m].min_players for m in modules)])
    return rng.randint(least, 8)


def check_positions(modules: tuple[ModuleId, ...], players: int, seed: int) -> int:
    """Play one random game, check ``POINTS`` random stable points of it; the points checked."""
    assert refusal(ruleset_of(modules), players) is None
    rng = random.Random(seed)
    rules = rules_for(modules)
    seats = random_seats(players, rng, rules, modules)
    game = Game.start(seats, rules=rules)
    commands: list[GameCommand] = []
    taken: list[tuple[int, int, ev.Position, object, list[GameCommand]]] = []
    picker = random.Random(seed + 1)
    while not game.is_over:
        if picker.random() < 0.2 and len(taken) < POINTS:
            position = position_of(game.state, seats)
            legal = sorted(map(str, game.legal_commands()))
            taken.append((len(commands), len(game.events), position, game.awaiting, legal))  # type: ignore[arg-type]
        command = random_command(game, rng)
        commands.append(command)
        game.play(command)
    assert len(commands) < 30_000
    for at, events_at, position, question, legal in taken:
        _check_point(seats, rules, position, question, legal, commands[at:], game.events[events_at:])
    return len(taken)


def _check_point(
    seats: list[Seat],
    rules: object,
    position: ev.Position,
    question: object,
    legal: list[str],
    rest: list[GameCommand],
    continuation: list[ev.Event],
) -> None:
    # the position survives JSON and the record format unchanged
    assert msgspec.json.decode(msgspec.json.encode(position), type=ev.Position) == position
    record = GameRecord(seats=tuple(seats), position=position, ruleset=rules.ruleset)  # type: ignore[attr-defined]
    written = json.loads(json.dumps(record_to_object(record)))
    assert not [e.message for e in VALIDATOR.iter_errors(written)], "the schema accepts what is written"
    assert read_record(written).position == position
    # a game started from it stands where the original stood
    resumed = Game.start(seats, position, rules)  # type: ignore[arg-type]
    assert resumed.events[1:] == [], "a stable point takes no automatic step"
    assert position_of(resumed.state, seats) == position
    assert resumed.awaiting == question
    assert sorted(map(str, resumed.legal_commands())) == legal
    # and plays on exactly as the original did
    first = len(resumed.events)
    for command in rest:
        resumed.play(command)
    assert resumed.events[first:] == continuation
    assert resumed.is_over


@pytest.mark.parametrize("modules", MODULE_SETS, ids=lambda m: "+".join(m) or "base")
def test_every_module_set_resumes_from_any_stable_point(modules: tuple[ModuleId, ...]) -> None:
    checked = 0
    for seed in range(3):
        players = _table(modules, random.Random(seed))
        checked += check_positions(modules, players, 7_000 + seed)
    assert checked >= 3


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    chosen=st.sets(st.sampled_from(OS + UA)),
    players=st.integers(min_value=3, max_value=8),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_random_module_sets_resume_from_any_stable_point(
    chosen: set[ModuleId], players: int, seed: int
) -> None:
    if ModuleId.UA1 in chosen:
        chosen.add(ModuleId.UA2)
    modules = tuple(sorted(m for m in chosen if MODULES[m].min_players <= players))
    check_positions(modules, players, seed)


_WORDS = ["p1", "p2", "p9", "r03", "b05", "shoot1", "beer", "arrow", "duel", "whiskey", "S:3", "shots", "x"]


def _changed(rng: random.Random, written: dict[str, Any]) -> dict[str, Any]:
    """``written`` (a position as JSON data) with one field changed: flipped, renumbered,
    renamed, cut short or emptied."""
    paths: list[list[Any]] = []

    def walk(value: Any, path: list[Any]) -> None:
        if path:
            paths.append(path)
        if isinstance(value, dict):
            for key, child in value.items():
                walk(child, [*path, key])
        elif isinstance(value, list):
            for n, child in enumerate(value):
                walk(child, [*path, n])

    walk(written, [])
    path = rng.choice(paths)
    parent: Any = written
    for key in path[:-1]:
        parent = parent[key]
    old = parent[path[-1]]
    if isinstance(old, bool):
        new: Any = not old
    elif isinstance(old, int):
        new = rng.randint(0, 12)
    elif isinstance(old, str):
        new = rng.choice(_WORDS)
    elif isinstance(old, list):
        new = old[: rng.randint(0, len(old))] if old else [rng.choice(["p1", "beer", 3])]
    else:
        new = {} if isinstance(old, dict) else None
    parent[path[-1]] = new
    return written


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_a_position_changed_in_one_field_is_refused_in_words_or_plays_on(seed: int) -> None:
    """Never a crash: a position an import or a scorekeeper gets wrong is refused (InvalidSetup),
    or it is a game whose inputs are answered: played, or refused as a RuleError that changes
    nothing (fields that disagree in a way only playing on shows: ``game._position_cannot_be_played``)."""
    rng = random.Random(seed)
    modules = OS + UA
    rules = rules_for(modules)
    seats = random_seats(8, rng, rules, modules)
    game = Game.start(seats, rules=rules)
    written: list[dict[str, Any]] = []
    while not game.is_over and len(written) < 20:
        if rng.random() < 0.3:
            written.append(msgspec.to_builtins(position_of(game.state, seats)))
        game.play(random_command(game, rng))
    for original in written * 3:
        changed = _changed(rng, json.loads(json.dumps(original)))
        try:
            position = msgspec.convert(changed, ev.Position)
        except msgspec.ValidationError:
            continue  # the record's reader refuses its shape first
        try:
            resumed = Game.start(seats, position, rules)
        except RuleError:
            continue
        for _ in range(20):
            if resumed.is_over:
                break
            standing = position_of(resumed.state, seats)
            try:
                resumed.play(random_command(resumed, rng))
            except RuleError:
                assert position_of(resumed.state, seats) == standing, "a refused input changes nothing"
                break
