"""A game's stored stream, numbered and sorted into the parts an audit checks.

Findings name events by their number in the stream (its version: 1 is ``GameCreated``), the
number the hash chain uses too, so "event 57" means the same row everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import msgspec

from event_store import EventStoreError, Mapper, RecordedEvent
from services.game.application.lifecycle import (
    EntryTakenBack,
    GameAbandoned,
    GameCreated,
    GameMode,
    PlayerJoined,
    SeatReplaced,
    SeatsDealt,
    SeedRevealed,
)
from services.game.audit.corrections import Correction, take_back
from services.game.audit.words import Unreadable
from services.game.engines import ENDING_TYPES, ENGINE_EVENT_TYPES, OPENING_TYPES, stored_type


class StoredEvent(msgspec.Struct, frozen=True):
    number: int
    """The event's version in its stream: "event 57"."""
    event: msgspec.Struct
    """The decoded event, or ``Unreadable`` when its stored data does not decode."""
    command_id: str | None = None
    """The command that appended it (its metadata): one command's events are one entry."""
    actor: str | None = None
    """Who sent that command (its metadata: ``organiser:<id>``, ``player:<id>``, ``system``)."""

    @property
    def is_engine_event(self) -> bool:
        """Produced by the rules engine (as opposed to the service's lifecycle facts)."""
        if isinstance(self.event, Unreadable):
            return self.event.type in ENGINE_EVENT_TYPES
        return stored_type(self.event) in ENGINE_EVENT_TYPES


def decode_stream(recorded: Sequence[RecordedEvent], mapper: Mapper) -> list[StoredEvent]:
    """Number and decode each stored event; one that does not decode is kept as Unreadable
    (an edited row may no longer fit its class, and the audit must name it, not crash)."""
    decoded: list[StoredEvent] = []
    for r in recorded:
        try:
            event = mapper.to_domain(r)
        except EventStoreError as error:
            event = Unreadable(type=r.type, reason=str(error))
        decoded.append(StoredEvent(r.version, event, r.metadata.command_id, r.metadata.actor))
    return decoded


@dataclass(slots=True)
class GameStream:
    """The layout of a game's stream (see ``services/game/application/lifecycle.py``)."""

    events: list[StoredEvent]
    created: GameCreated | None = None
    joined: list[PlayerJoined] = field(default_factory=list)
    dealt: StoredEvent | None = None
    started: StoredEvent | None = None
    engine: list[StoredEvent] = field(default_factory=list)
    """The rules engine's events in stream order, from GameStarted on, less the entries taken back."""
    corrections: list[Correction] = field(default_factory=list)
    """The entries taken back at a table (``EntryTakenBack``), in order."""
    replacements: list[StoredEvent] = field(default_factory=list)
    """The seats that changed hands (``SeatReplaced``), in order (``audit/seats.py`` checks them)."""
    ended: StoredEvent | None = None
    revealed: StoredEvent | None = None
    abandoned: StoredEvent | None = None
    after_end: list[StoredEvent] = field(default_factory=list)
    """Events stored after GameEnded, except the one SeedRevealed an online game adds there."""

    @property
    def is_online(self) -> bool:
        return self.created is not None and self.created.mode is GameMode.ONLINE

    @property
    def is_table(self) -> bool:
        return self.created is not None and self.created.mode is GameMode.TABLE

    @property
    def is_over(self) -> bool:
        return self.ended is not None


def parse_stream(events: Sequence[StoredEvent]) -> GameStream:
    stream = GameStream(list(events))
    if events and isinstance(events[0].event, GameCreated):
        stream.created = events[0].event
    for stored in events:
        if stream.ended is not None:
            _after_end(stream, stored)
            continue
        event = stored.event
        if stored.is_engine_event:
            stream.engine.append(stored)
        match event:
            case PlayerJoined() if stream.started is None:
                stream.joined.append(event)
            case SeatsDealt() if stream.dealt is None:
                stream.dealt = stored
            case _ if stream.started is None and _named(event, OPENING_TYPES):
                stream.started = stored
            case _ if _named(event, ENDING_TYPES):
                stream.ended = stored
            case SeedRevealed() if stream.revealed is None:
                stream.revealed = stored
            case GameAbandoned() if stream.abandoned is None:
                stream.abandoned = stored
            case SeatReplaced():
                stream.replacements.append(stored)
            case EntryTakenBack():
                stream.engine, correction = take_back(stream.engine, stored, events, stream.is_table)
                stream.corrections.append(correction)
    return stream


def _named(event: msgspec.Struct, types: frozenset[str]) -> bool:
    # by the stored type name, as the store knows it: any engine's opening or end
    return not isinstance(event, Unreadable) and stored_type(event) in types


def _after_end(stream: GameStream, stored: StoredEvent) -> None:
    # an online game reveals its seed in the same append as GameEnded: that one belongs there
    if isinstance(stored.event, SeedRevealed) and stream.is_online and stream.revealed is None:
        stream.revealed = stored
    else:
        stream.after_end.append(stored)
