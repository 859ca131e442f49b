"""How big one imported record may be: its bytes, its inputs and the events they make.

An import plays every input through the game service, one append each, inside one request: a
35 KB record once wrote 7,016 events and kept the API busy for 22.6 s. So a record is bounded
before anything is stored, by the longest games the bots play (``bang-league simulate``, 150
games of each of the longest setups, docs/game-records.md "Bounds"), with room to spare:

- ``MAX_IMPORT_BYTES``: the record as compact JSON (the longest seen: 21.8 KB, a dice game of
  8 players with Old Saloon); refused with 413;
- ``MAX_IMPORT_INPUTS``: its inputs, a card record's first shuffle included (the longest seen:
  821, the same dice game); refused with 422 before the record is replayed;
- ``MAX_IMPORT_EVENTS``: the engine's events its replay makes (the longest seen: 3,262, a card
  game of 8 players); refused with 422 after the replay in memory, before anything is stored.

Every refusal names the bound and the record's value. These are an import's bounds; reading a
record (``rules run``, the scenarios) has only the reader's wider schema bounds
(``services/game/edge/bounds.py``). The REST import and ``bang-league
import`` both go through ``check_bytes`` and the gateway's ``import_record`` (inputs, events).
"""

from __future__ import annotations

import msgspec

from services.game.records.errors import RecordTooLarge, RecordTooLong

MAX_IMPORT_BYTES = 64 * 1024
MAX_IMPORT_INPUTS = 2_000
MAX_IMPORT_EVENTS = 6_000


def record_bytes(record: object) -> int:
    """The record's size as compact JSON: what it holds, whatever whitespace it was sent with."""
    return len(msgspec.json.encode(record))


def check_bytes(size: int) -> None:
    if size > MAX_IMPORT_BYTES:
        raise RecordTooLarge("bytes", MAX_IMPORT_BYTES, size)


def check_inputs(inputs: int) -> None:
    if inputs > MAX_IMPORT_INPUTS:
        raise RecordTooLong("inputs", MAX_IMPORT_INPUTS, inputs)


def check_events(events: int) -> None:
    if events > MAX_IMPORT_EVENTS:
        raise RecordTooLong("events", MAX_IMPORT_EVENTS, events)
