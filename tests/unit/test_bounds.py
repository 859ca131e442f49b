"""services/game/edge/bounds.py: the rules of the edge, one value at a time."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest

from services.game.edge import bounds
from services.game.edge.bounds import GameId, Identifier, InvalidArgument, Name, Notes, bounded
from services.game.edge.http import CommandRequest, CreateGameRequest, ImportRequest, JoinRequest
from services.game.records import reader

CONTROLS = ["\x00", "\x1b", "\x07", "\x7f", "\x85", "\x9b"]
CONTROLS += ["\u2028", "\u202a", "\u202e", "\u2066", "\u2069", "\ud800"]


@pytest.mark.parametrize("control", CONTROLS)
@pytest.mark.parametrize("kind", [Identifier, GameId, Name, Notes])
def test_no_id_name_or_text_takes_a_control_character(kind: Any, control: str) -> None:
    for value in (f"a{control}b", f"{control}ab", f"ab{control}"):
        with pytest.raises(InvalidArgument):
            bounded("f", value, kind)


@pytest.mark.parametrize("kind", [Identifier, GameId, Name])
def test_a_final_newline_is_refused_too(kind: Any) -> None:
    """``$`` matches before a final newline in Python's ``re.search``: the lookahead refuses it."""
    with pytest.raises(InvalidArgument, match="`f`"):
        bounded("f", "abc\n", kind)


def test_free_text_keeps_its_lines_and_any_script() -> None:
    assert bounded("notes", "line one\n\tline two\r\n漢字 🤠", Notes) == "line one\n\tline two\r\n漢字 🤠"
    assert bounded("name", "Zoë O'Brien-Смирнов (Law)", Name) == "Zoë O'Brien-Смирнов (Law)"


def test_the_refusal_says_the_rule_in_words() -> None:
    with pytest.raises(InvalidArgument) as refused:
        bounded("leagueId", "demo\x00x", Identifier)
    assert str(refused.value) == "`leagueId`: Expected `str` with letters, digits and _ . : @ - only"
    extensions = {"code": "BAD_USER_INPUT", "field": "leagueId", "rule": refused.value.rule}
    assert refused.value.extensions == extensions
    assert "regex" not in bounds.explain(f"Expected `str` matching regex {bounds.NAME_PATTERN!r}")


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        (2**31, bounds.Version),
        (0, bounds.Version),
        (-5, bounds.PageOffset),
        (1e23, bounds.Version),
        (True, bounds.Version),
    ],
)
def test_numbers_fit_an_integer_column(value: Any, kind: Any) -> None:
    with pytest.raises(InvalidArgument):
        bounded("n", value, kind)


def test_a_left_out_optional_argument_passes() -> None:
    assert bounded("seasonId", None, Identifier) is None


def _unions(info: mi.Type, seen: set[int]) -> list[mi.UnionType]:
    if id(info) in seen:
        return []
    seen.add(id(info))
    found: list[mi.UnionType] = []
    if isinstance(info, mi.UnionType):
        found.append(info)
        for t in info.types:
            found += _unions(t, seen)
    elif isinstance(info, mi.StructType):
        for field in info.fields:
            found += _unions(field.type, seen)
    elif isinstance(info, (mi.ListType, mi.TupleType, mi.SetType, mi.FrozenSetType)):
        found += _unions(info.item_type, seen)
    elif isinstance(info, mi.DictType):
        found += _unions(info.value_type, seen)
    return found


@pytest.mark.parametrize(
    "request_type", [CreateGameRequest, JoinRequest, CommandRequest, ImportRequest, reader._Record]
)
def test_no_union_mixes_a_pattern_with_a_container(request_type: type[msgspec.Struct]) -> None:
    """msgspec 0.22 frees memory twice for a union of a ``pattern``-constrained ``str`` with a
    list or a dict (see bounds.py): such a field is bounded by ``bounded`` instead."""
    for union in _unions(mi.type_info(request_type), set()):
        patterned = any(isinstance(t, mi.StrType) and t.pattern for t in union.types)
        container = any(isinstance(t, (mi.ListType, mi.DictType)) for t in union.types)
        assert not (patterned and container), union


def test_the_edge_types_survive_the_collector() -> None:
    """Decoding through every request type, then exiting, must not abort the process."""
    script = textwrap.dedent(
        """
        import gc, msgspec
        from services.game.edge.http import CommandRequest, CreateGameRequest
        from services.game.records import read_record
        bodies = [
            (b'{"command": "p1 stop", "command_id": "a"}', CommandRequest),
            (b'{"command": {"type": "StopRolling"}, "command_id": "a"}', CommandRequest),
            (b'{"command_id": "a", "mode": "online", "player_count": 3}', CreateGameRequest),
        ]
        record = b'{"format": "bang-dice-record", "version": 1, "seats": [], "inputs": ["a", {}]}'
        for _ in range(20):
            for body, kind in bodies:
                msgspec.json.decode(body, type=kind)
            try:
                read_record(record)
            except ValueError:
                pass
        gc.collect()
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
