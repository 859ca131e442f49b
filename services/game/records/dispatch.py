"""Either game's record, told apart by its ``format`` (and ``game_type``): read, replay,
summarize, trace and write without knowing in advance which game it holds.

``bang-dice-record`` (``game_type: dice``) goes to the dice modules beside this one, unchanged;
``bang-cards-record`` (``game_type: cards``) to ``records/cards/``. The CLI's ``rules`` and the
scenario runner use this; code that handles one game type calls its own reader directly.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from services.game.records.cards import (
    CARDS_FORMAT,
    CardRecord,
    card_trace_line,
    read_card_record,
    replay_card_record,
    summarize_cards,
    write_card_record,
)
from services.game.records.errors import MalformedRecord
from services.game.records.model import FORMAT, GameRecord
from services.game.records.reader import read_record
from services.game.records.replay import OnEvent, replay_record
from services.game.records.summary import summarize
from services.game.records.trace import trace_line
from services.game.records.writer import write_record
from services.game.rules import cards, dice

AnyRecord = GameRecord | CardRecord
AnyGame = dice.Game | cards.Game
FORMATS = (FORMAT, CARDS_FORMAT)


def read_any_record(source: bytes | str | os.PathLike[str] | Mapping[str, Any]) -> AnyRecord:
    """A dice or card record (JSON bytes or text, a path, or a decoded mapping)."""
    if isinstance(source, os.PathLike):
        try:
            source = Path(source).read_bytes()
        except OSError as e:
            raise MalformedRecord(f"cannot read {os.fspath(source)!r}: {e.strerror}") from None
    if not isinstance(source, Mapping):
        try:
            decoded = msgspec.json.decode(source)
        except msgspec.DecodeError as e:
            raise MalformedRecord(f"record: not valid JSON ({e})") from None
        if not isinstance(decoded, dict):
            raise MalformedRecord("record: expected a JSON object at `$`")
        source = decoded
    fmt = source.get("format")
    if fmt == CARDS_FORMAT:
        return read_card_record(source)
    if fmt == FORMAT:
        return read_record(source)
    raise MalformedRecord(f"record: `$.format` must be one of {', '.join(map(repr, FORMATS))}, got {fmt!r}")


def replay_any_record(record: AnyRecord, on_event: OnEvent | None = None) -> AnyGame:
    if isinstance(record, CardRecord):
        return replay_card_record(record, on_event)
    game: dice.Game = replay_record(record, on_event)
    return game


def summarize_any(game: AnyGame) -> dict[str, Any]:
    return summarize_cards(game) if isinstance(game, cards.Game) else summarize(game)


def trace_any_line(event: Any) -> str:
    return card_trace_line(event) if isinstance(event, cards.Event) else trace_line(event)


def write_any_record(game: AnyGame, record: AnyRecord | None = None, *, structured: bool = False) -> str:
    """``game`` written as a record; ``record`` (the one it was replayed from) lends its
    options and metadata."""
    if isinstance(game, cards.Game):
        options = record.options if isinstance(record, CardRecord) else None
        return write_card_record(
            game, options=options, meta=record.meta if record else None, structured=structured
        )
    dice_options = record.options if isinstance(record, GameRecord) else None
    return write_record(
        game, options=dice_options, meta=record.meta if record else None, structured=structured
    )
