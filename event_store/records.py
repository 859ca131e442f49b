"""The store's small frozen records: what goes in, what comes out."""

from __future__ import annotations

import enum
import uuid
from datetime import datetime
from typing import Any

import msgspec


class Expect(enum.Enum):
    """Expected stream versions that are not a number."""

    ANY = "any"  # append whatever the stream's version is
    NO_STREAM = "no_stream"  # the stream must not exist yet (the same as version 0)


ANY = Expect.ANY
NO_STREAM = Expect.NO_STREAM

# An exact stream version (the number of events in it; 0 = no stream) or an Expect.
ExpectedVersion = int | Expect


class EventMetadata(msgspec.Struct, frozen=True, omit_defaults=True, kw_only=True):
    """Who caused an event and why; part of the hashed content.

    `command_id` ties an event to the command that produced it (retries carry the same id),
    `correlation_id` to the whole conversation, `causation_id` to the message that caused it.
    `command_fingerprint` (on a command's first event) tells a retry of that command from
    another command sent with the same id.
    """

    correlation_id: str | None = None
    causation_id: str | None = None
    actor: str | None = None
    command_id: str | None = None
    command_fingerprint: str | None = None


class NewEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event to append. `data` is a JSON object as a dict or as JSON bytes.

    Give `event_id` explicitly (e.g. `uuid5(command_id, index)`) to make retries idempotent:
    re-appending the same ids answers with the original positions instead of writing twice.
    """

    type: str
    data: dict[str, Any] | bytes
    schema_version: int = 1
    event_id: uuid.UUID = msgspec.field(default_factory=uuid.uuid4)
    metadata: EventMetadata = EventMetadata()


class RecordedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event as stored, read back. `data` and `schema_version` are after upcasting;
    `hash` covers the stored (not upcast) content, see event_store.hashing."""

    position: int
    stream: str
    version: int
    event_id: uuid.UUID
    type: str
    schema_version: int
    data: dict[str, Any]
    metadata: EventMetadata
    recorded_at: datetime
    hash: bytes
    prev_hash: bytes

    @property
    def category(self) -> str:
        return self.stream.split("-", 1)[0]


class AppendResult(msgspec.Struct, frozen=True, kw_only=True):
    """Where a batch landed. `duplicate` is True when the batch was stored already (a retry)
    and these are the original positions."""

    stream: str
    positions: tuple[int, ...]
    versions: tuple[int, ...]
    duplicate: bool = False

    @property
    def version(self) -> int:
        """The stream's version right after this batch: the next expected_version."""
        return self.versions[-1]

    @property
    def last_position(self) -> int:
        return self.positions[-1]
