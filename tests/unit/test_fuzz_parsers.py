"""Bad inputs, generated (issue 9): whatever comes in, the record importer and the REST command
parser answer with a result or their own refusal, never with another exception (a 500).

- ``read_record`` + ``replay_record``: a ``GameRecord`` / ``Game``, or a ``RecordError``;
- ``parse_command`` (text form) and ``CommandRequest.parsed`` (text or object): a command, or
  ``MalformedCommand`` (``InvalidArgument`` for a text or object out of bounds).

The generators mix noise with near-misses built from the real vocabulary (verbs, faces, seat ids,
command types, a real record with one field changed), so the examples reach past the first check.
"""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.game.edge.bounds import InvalidArgument
from services.game.edge.http import CommandRequest
from services.game.records import (
    GameRecord,
    RecordError,
    read_record,
    record_from_events,
    record_to_object,
    replay_record,
)
from services.game.rules.dice import GameCommand, MalformedCommand, parse_command
from services.game.rules.dice import commands as cmd
from services.game.rules.dice.kinds import BASE
from tests.unit.records.test_roundtrip import play_random

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

VERBS = ["roll", "reroll", "stop", "target", "double", "arrows-instead", "discard", "remove", "decline", "as"]
SEATS = ["p1", "p2", "p3", "p9", "p0", ""]
FACES = [f.value for f in BASE.faces]
COMMAND_TYPES = [c.__name__ for c in GameCommand.__args__]  # type: ignore[attr-defined]
KEYS = ["type", "player", "format", "version", "seats", "inputs", "position", "meta", "options"]
NASTY = ["\x00", "\x1b[31m", "\u202e", "\u0085", "\n", "\t", "-1", "1e3", "99999999999999999999", "🤠", "  "]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(max_size=20),
    st.sampled_from(VERBS + SEATS + FACES + COMMAND_TYPES + NASTY),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.dictionaries(st.one_of(st.text(max_size=10), st.sampled_from(KEYS)), inner, max_size=6),
    ),
    max_leaves=30,
)
words = st.one_of(
    st.sampled_from(VERBS + SEATS + FACES + NASTY), st.integers(-3, 12).map(str), st.text(max_size=8)
)
command_texts = st.one_of(
    st.text(max_size=60),
    st.lists(words, min_size=0, max_size=8).map(" ".join),
    st.builds(
        lambda seat, verb, rest: " ".join([seat, verb, *rest]),
        st.sampled_from(SEATS),
        st.sampled_from(VERBS),
        st.lists(words, max_size=6),
    ),
)
command_objects = st.one_of(
    st.dictionaries(st.text(max_size=10), json_values, max_size=5),
    st.fixed_dictionaries(
        {"type": st.sampled_from([*COMMAND_TYPES, "DiceRolled", "Fly"]), "player": st.sampled_from(SEATS)},
        optional={
            "dice": json_values,
            "faces": st.lists(st.sampled_from([*FACES, "bear", 3]), max_size=7),
            "target": json_values,
            "die": json_values,
            "count": json_values,
            "shot_die": json_values,
            "beer_die": json_values,
            "from_players": json_values,
            "as_face": json_values,
            "extra": json_values,
        },
    ),
)


@FUZZ
@given(command_texts)
def test_the_text_form_parses_or_is_malformed(text: str) -> None:
    try:
        command = parse_command(text)
    except MalformedCommand:
        return
    assert isinstance(command, cmd.Command)
    assert parse_command(str(command)) == command  # what it read, it prints back


@FUZZ
@given(st.one_of(command_texts, command_objects))
def test_the_rest_command_parses_or_is_refused(command: str | dict[str, Any]) -> None:
    request = CommandRequest(command=command, command_id="fuzz")
    try:
        parsed = request.parsed()
    except (MalformedCommand, InvalidArgument):
        return
    assert isinstance(parsed, cmd.Command)


@FUZZ
@given(json_values)
def test_any_json_value_is_a_record_or_a_record_error(value: Any) -> None:
    _read_and_replay(json.dumps(value))
    if isinstance(value, dict):
        _read_and_replay(value)  # as the import endpoint hands it over, decoded


FULL = record_to_object(record_from_events(play_random(4, 7)[0].events))
"""A whole game, for mutations of any field and of its inputs."""
SHORT = record_to_object(record_from_events(play_random(5, 3, stop_after=6)[0].events))


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value[:12]):
            found += _paths(inner, (*prefix, index))
    return found


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    copy = list(value)
    copy[head] = _replace(copy[head], rest, new)
    return copy


@FUZZ
@given(st.sampled_from([SHORT, FULL]), st.randoms(use_true_random=False), json_values, st.booleans())
def test_a_real_record_with_one_field_changed_is_a_record_or_a_record_error(
    record: dict[str, Any], rng: random.Random, new: Any, as_text: bool
) -> None:
    path = rng.choice(_paths(record)[1:])
    mutated = _replace(record, path, new)
    _read_and_replay(json.dumps(mutated) if as_text else mutated)


@FUZZ
@given(st.randoms(use_true_random=False), st.lists(st.one_of(command_texts, command_objects), max_size=4))
def test_a_real_game_with_inputs_spliced_in_is_a_record_or_a_record_error(
    rng: random.Random, spliced: list[Any]
) -> None:
    inputs = list(FULL["inputs"])
    at = rng.randrange(len(inputs) + 1)
    _read_and_replay({**FULL, "inputs": inputs[:at] + spliced + inputs[at:]})


@FUZZ
@given(st.binary(max_size=200))
def test_any_bytes_are_a_record_or_a_record_error(raw: bytes) -> None:
    _read_and_replay(raw)


def _read_and_replay(source: Any) -> None:
    try:
        record = read_record(source)
    except RecordError:
        return
    assert isinstance(record, GameRecord)
    try:
        replay_record(record)
    except RecordError:
        return


def test_the_full_record_itself_reads_and_replays() -> None:
    """The mutations above start from a record the reader takes whole."""
    game = replay_record(read_record(msgspec.json.encode(FULL)))
    assert game.is_over
