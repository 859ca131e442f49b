"""What an append batch may be and how it hashes, whatever stores it.

PostgresEventStore and MemoryEventStore both take their batch rules and the chain from here,
so the two stores cannot drift apart on what they refuse, in which words, or on the hashes a
stream gets.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

import msgspec

from event_store.codec import Mapper, canonical_data, canonical_metadata
from event_store.errors import InvalidEvent
from event_store.hashing import event_hash
from event_store.records import ANY, NO_STREAM, EventMetadata, Expect, ExpectedVersion, NewEvent


class PreparedEvent(msgspec.Struct, frozen=True):
    """One event of a batch in its stored form: canonical JSON bytes, ready to hash."""

    event_id: uuid.UUID
    type: str
    schema_version: int
    data: bytes
    metadata: bytes


def prepare_batch(
    mapper: Mapper, events: Sequence[NewEvent | msgspec.Struct], metadata: EventMetadata | None
) -> list[PreparedEvent]:
    """The batch in its stored form; InvalidEvent for an empty batch, a bad type or schema
    version, or an event id given twice."""
    if not events:
        raise InvalidEvent("an append needs at least one event")
    prepared = []
    for event in events:
        new = event if isinstance(event, NewEvent) else mapper.to_new_event(event, metadata=metadata)
        if not new.type or not isinstance(new.type, str):
            raise InvalidEvent(f"event type must be a non-empty string, not {new.type!r}")
        if new.schema_version < 1:
            raise InvalidEvent(f"{new.type}: schema_version must be ≥ 1")
        prepared.append(
            PreparedEvent(
                new.event_id,
                new.type,
                new.schema_version,
                canonical_data(new.data),
                canonical_metadata(new.metadata),
            )
        )
    if len({p.event_id for p in prepared}) != len(prepared):
        raise InvalidEvent("the same event id appears twice in one batch")
    return prepared


def wanted_version(expected: ExpectedVersion) -> int | None:
    """None for ANY, else the exact number of events the stream must have."""
    if expected is ANY:
        return None
    if expected is NO_STREAM:
        return 0
    if isinstance(expected, Expect) or not isinstance(expected, int) or expected < 0:
        raise InvalidEvent(f"expected_version must be ANY, NO_STREAM or an int ≥ 0: {expected!r}")
    return expected


def shown_expected(expected: ExpectedVersion) -> object:
    """`expected` as a ConcurrencyError names it."""
    return expected.value if isinstance(expected, Expect) else expected


def chain_hashes(
    stream: str, base_version: int, prev_hash: bytes, prepared: list[PreparedEvent]
) -> list[bytes]:
    """The hash of each event of the batch, chained onto the stream's head."""
    hashes = []
    for offset, event in enumerate(prepared, start=1):
        prev_hash = event_hash(
            prev_hash=prev_hash,
            stream=stream,
            version=base_version + offset,
            event_id=event.event_id,
            event_type=event.type,
            schema_version=event.schema_version,
            data=event.data,
            metadata=event.metadata,
        )
        hashes.append(prev_hash)
    return hashes
