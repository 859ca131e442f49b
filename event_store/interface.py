"""The event store as its users see it, independent of the backend."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Protocol

import msgspec

from event_store.records import (
    AppendResult,
    EventMetadata,
    ExpectedVersion,
    NewEvent,
    RecordedEvent,
)
from event_store.verification import VerificationReport


class EventStore(Protocol):
    """Append-only streams of events with one global order.

    `append` is atomic per batch, optimistic per stream (`expected_version`), and idempotent
    per event id. Reads come back ordered: by version within a stream, by position globally.
    Each stream carries the SHA-256 chain of event_store.hashing, which `verify_*` walk.

    Implemented by PostgresEventStore and MemoryEventStore; tests/event_store_contract.py
    holds both to this contract.
    """

    async def append(
        self,
        stream: str,
        events: Sequence[NewEvent | msgspec.Struct],
        *,
        expected_version: ExpectedVersion,
        metadata: EventMetadata | None = None,
    ) -> AppendResult: ...

    async def read_stream(
        self, stream: str, from_version: int = 1, limit: int | None = None
    ) -> list[RecordedEvent]: ...

    def iter_stream(
        self, stream: str, from_version: int = 1, batch_size: int = 500
    ) -> AsyncIterator[RecordedEvent]: ...

    async def read_all(
        self,
        after_position: int = 0,
        limit: int = 500,
        categories: Sequence[str] | None = None,
    ) -> list[RecordedEvent]: ...

    def iter_all(
        self,
        after_position: int = 0,
        batch_size: int = 500,
        categories: Sequence[str] | None = None,
    ) -> AsyncIterator[RecordedEvent]: ...

    async def read_category(
        self, category: str, after_position: int = 0, limit: int = 500
    ) -> list[RecordedEvent]: ...

    async def stream_version(self, stream: str) -> int: ...

    async def head_position(self) -> int: ...

    async def verify_stream(self, stream: str) -> VerificationReport: ...

    async def verify_all(self) -> VerificationReport: ...

    async def close(self) -> None: ...


class PositionPublisher(Protocol):
    """Told the new head position after every committed append; must not block."""

    def published(self, position: int) -> None: ...


class _PagedReader(Protocol):
    async def read_stream(
        self, stream: str, from_version: int = 1, limit: int | None = None
    ) -> list[RecordedEvent]: ...

    async def read_all(
        self, after_position: int = 0, limit: int = 500, categories: Sequence[str] | None = None
    ) -> list[RecordedEvent]: ...


class PagedReads:
    """`iter_stream` and `iter_all` for any store, as pages of its own `read_stream` and
    `read_all`: the paging is the same whatever the backend."""

    async def iter_stream(
        self: _PagedReader, stream: str, from_version: int = 1, batch_size: int = 500
    ) -> AsyncIterator[RecordedEvent]:
        while True:
            batch = await self.read_stream(stream, from_version, batch_size)
            for event in batch:
                yield event
            if len(batch) < batch_size:
                return
            from_version = batch[-1].version + 1

    async def iter_all(
        self: _PagedReader,
        after_position: int = 0,
        batch_size: int = 500,
        categories: Sequence[str] | None = None,
    ) -> AsyncIterator[RecordedEvent]:
        while True:
            batch = await self.read_all(after_position, batch_size, categories)
            for event in batch:
                yield event
            if len(batch) < batch_size:
                return
            after_position = batch[-1].position
