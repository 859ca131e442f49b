"""Everything the event store raises, split by cause.

    EventStoreError
    ├── ConcurrencyError          the stream is not at the expected version; nothing written
    ├── InvalidEvent              bad input, rejected before anything is written or decoded
    │   ├── InvalidStreamName
    │   ├── UnknownEventType
    │   └── PayloadDecodeError
    ├── DuplicateEventConflict    some event ids are stored already, but not as this batch
    ├── StoreUnavailable          the database could not be reached or dropped mid-call
    └── MigrationError            the schema on the server is not what the SQL files say
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID


class EventStoreError(Exception):
    """Base of every error the event store raises."""


class ConcurrencyError(EventStoreError):
    """The stream was not at the version the caller expected, so nothing was appended."""

    def __init__(self, stream: str, expected: object, actual: int) -> None:
        self.stream = stream
        self.expected = expected
        self.actual = actual
        super().__init__(f"{stream}: expected version {expected}, but the stream is at {actual}")


class InvalidEvent(EventStoreError, ValueError):
    """Input the store refuses: a malformed stream name, event or payload."""


class InvalidStreamName(InvalidEvent):
    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        super().__init__(f"invalid stream name {name!r}: {reason}")


class UnknownEventType(InvalidEvent):
    """No class (or no encoder) is registered for this event type."""

    def __init__(self, event_type: str, known: Sequence[str] = ()) -> None:
        self.event_type = event_type
        hint = f" (known: {', '.join(sorted(known))})" if known else ""
        super().__init__(f"unknown event type {event_type!r}{hint}")


class PayloadDecodeError(InvalidEvent):
    """A payload is not JSON, not a JSON object, or does not fit its event class."""


class DuplicateEventConflict(EventStoreError):
    """Some of the batch's event ids are stored already, but the batch is not a faithful retry.

    A retry must resend exactly the same events (same stream, ids, order, type, schema
    version, data and metadata); then the original positions are returned instead.
    """

    def __init__(self, stream: str, event_ids: Sequence[UUID], detail: str) -> None:
        self.stream = stream
        self.event_ids = tuple(event_ids)
        super().__init__(f"{stream}: event ids already stored differently: {detail}")


class StoreUnavailable(EventStoreError):
    """The database could not be reached, or the connection dropped during the call.

    For an append the outcome is unknown: it may have committed. Retrying the same events
    (same event ids) is safe: a committed batch is answered with its original positions.
    """


class MigrationError(EventStoreError):
    """A migration file failed, or an applied migration file was edited afterwards."""
