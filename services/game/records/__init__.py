"""Game records: a game of BANG! The Dice Game as a JSON file, read, replayed and written.

The format is documented in ``docs/game-records.md`` and ``docs/game-records.schema.json``.
Clubs import table games with it, audits export online games with it, and every rule case in
``tests/scenarios/`` is one. The engine knows nothing of it. The card game's sibling format
(``bang-cards-record``) lives in ``records/cards/``; ``records/dispatch.py`` handles either.
"""

from services.game.records.errors import IllegalInput, MalformedRecord, RecordError
from services.game.records.model import FORMAT, VERSION, DiceSource, GameRecord, RecordMeta, RecordOptions
from services.game.records.reader import read_record
from services.game.records.replay import OnEvent, replay_record
from services.game.records.summary import summarize
from services.game.records.trace import trace_line
from services.game.records.writer import (
    inputs_from_events,
    position_record,
    record_from_events,
    record_to_object,
    write_record,
)

__all__ = [
    "FORMAT",
    "VERSION",
    "DiceSource",
    "GameRecord",
    "IllegalInput",
    "MalformedRecord",
    "OnEvent",
    "RecordError",
    "RecordMeta",
    "RecordOptions",
    "inputs_from_events",
    "position_record",
    "read_record",
    "record_from_events",
    "record_to_object",
    "replay_record",
    "summarize",
    "trace_line",
    "write_record",
]
