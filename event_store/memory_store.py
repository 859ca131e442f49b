"""MemoryEventStore: the EventStore in one process's memory, for engine and service tests and
tools that need no PostgreSQL.

It keeps PostgresEventStore's contract, and the same test suite checks both
(tests/event_store_contract.py): ordered appends with an expected version, gap-free global
positions, whole batches or nothing, idempotent retries by event id, stream, global and
category reads, upcasting on read. It stores what PostgreSQL stores - the canonical JSON text
and the same per-stream hash chain, computed by the same code - so a stream appended here has
exactly the hashes PostgreSQL would give it, and `verify_stream` walks it with the same checks.

What it does not have: durability, sharing between processes, joining a caller's transaction
(`connection=`), and subscriptions (a Subscription commits its checkpoint together with a read
model in PostgreSQL).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import uuid
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from operator import attrgetter
from typing import Any

import msgspec

from event_store.batches import PreparedEvent, chain_hashes, prepare_batch, shown_expected, wanted_version
from event_store.codec import Mapper, decode_metadata, decode_object
from event_store.errors import ConcurrencyError, DuplicateEventConflict, InvalidEvent
from event_store.hashing import GENESIS_HASH
from event_store.interface import PagedReads, PositionPublisher
from event_store.records import AppendResult, EventMetadata, ExpectedVersion, NewEvent, RecordedEvent
from event_store.streams import category_of, validate_category
from event_store.upcasting import Upcasters
from event_store.verification import (
    ChainBreak,
    ChainProblem,
    VerificationReport,
    first_broken_link,
)

_position = attrgetter("position")


@dataclass(frozen=True, slots=True)
class _Stored:
    """One event as stored: the columns of PostgreSQL's `events` row."""

    position: int
    stream: str
    category: str
    version: int
    event_id: uuid.UUID
    type: str
    schema_version: int
    data: str
    metadata: str
    recorded_at: datetime
    prev_hash: bytes
    hash: bytes

    def __getitem__(self, column: str) -> Any:
        # the chain walk in event_store.verification reads rows by column name
        return getattr(self, column)


class MemoryEventStore(PagedReads):
    """The event store in memory. Appends take an asyncio lock, so concurrent appenders in one
    event loop queue as PostgreSQL's writers do, whatever the append awaits in future."""

    def __init__(
        self,
        *,
        mapper: Mapper | None = None,
        upcasters: Upcasters | None = None,
        publisher: PositionPublisher | None = None,
    ) -> None:
        self.mapper = mapper or Mapper()
        self.upcasters = upcasters or Upcasters()
        self.publisher = publisher
        self._events: list[_Stored] = []  # index = position - 1
        self._streams: dict[str, list[_Stored]] = {}  # index = version - 1
        self._heads: dict[str, tuple[int, bytes]] = {}  # PostgreSQL's `streams` rows
        self._categories: dict[str, list[_Stored]] = {}
        self._by_id: dict[uuid.UUID, _Stored] = {}
        self._lock = asyncio.Lock()

    async def close(self) -> None:
        return None

    async def __aenter__(self) -> MemoryEventStore:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # -- appending -----------------------------------------------------------------------

    async def append(
        self,
        stream: str,
        events: Sequence[NewEvent | msgspec.Struct],
        *,
        expected_version: ExpectedVersion,
        metadata: EventMetadata | None = None,
    ) -> AppendResult:
        """Append `events` to `stream` atomically, if the stream is at `expected_version`
        (a number of events, `NO_STREAM`/0, or `ANY`). Raises as PostgresEventStore.append
        does; re-appending a stored batch answers with its original positions."""
        category = category_of(stream)
        prepared = prepare_batch(self.mapper, events, metadata)
        wanted = wanted_version(expected_version)
        async with self._lock:
            # Every check comes before the first write: a refused batch leaves no trace.
            stored = self._stored_batch(stream, prepared)
            if stored is not None:
                return stored
            actual, last_hash = self._heads.get(stream, (0, GENESIS_HASH))
            if wanted is not None and wanted != actual:
                raise ConcurrencyError(stream, shown_expected(expected_version), actual)
            # Give the loop away between the check and the write, as a database round trip
            # would: concurrent appenders really meet here, and only the lock keeps a second
            # one from passing the same check and forking the chain.
            await asyncio.sleep(0)
            result = self._write(stream, category, actual, last_hash, prepared)
        if self.publisher is not None:
            self.publisher.published(result.last_position)
        return result

    def _stored_batch(self, stream: str, prepared: list[PreparedEvent]) -> AppendResult | None:
        """The original positions if the batch is stored already exactly as given, None if
        none of its ids is stored; DuplicateEventConflict for anything in between (the rule
        of the SQL function `event_store_stored_batch`)."""
        found = [self._by_id.get(p.event_id) for p in prepared]
        stored = [e for e in found if e is not None]
        if not stored:
            return None
        faithful = (
            len(stored) == len(prepared)
            and all(
                e is not None
                and e.stream == stream
                and e.type == p.type
                and e.schema_version == p.schema_version
                and e.data == p.data.decode()
                and e.metadata == p.metadata.decode()
                for e, p in zip(found, prepared, strict=True)
            )
            and len({e.version - ordinal for ordinal, e in enumerate(stored, start=1)}) == 1
        )
        if not faithful:
            raise DuplicateEventConflict(
                stream,
                [p.event_id for p in prepared],
                f"{stream}: {len(stored)} of {len(prepared)} event ids are stored already, "
                "but not as this batch",
            )
        return AppendResult(
            stream=stream,
            positions=tuple(e.position for e in stored),
            versions=tuple(e.version for e in stored),
            duplicate=True,
        )

    def _write(
        self,
        stream: str,
        category: str,
        base_version: int,
        prev_hash: bytes,
        prepared: list[PreparedEvent],
    ) -> AppendResult:
        hashes = chain_hashes(stream, base_version, prev_hash, prepared)
        recorded_at = datetime.now(UTC)  # one moment per batch, as PostgreSQL's insert has
        first_position = len(self._events) + 1
        batch = [
            _Stored(
                position=first_position + offset,
                stream=stream,
                category=category,
                version=base_version + offset + 1,
                event_id=event.event_id,
                type=event.type,
                schema_version=event.schema_version,
                data=event.data.decode(),
                metadata=event.metadata.decode(),
                recorded_at=recorded_at,
                prev_hash=prev_hash if offset == 0 else hashes[offset - 1],
                hash=event_hash,
            )
            for offset, (event, event_hash) in enumerate(zip(prepared, hashes, strict=True))
        ]
        self._events.extend(batch)
        self._streams.setdefault(stream, []).extend(batch)
        self._categories.setdefault(category, []).extend(batch)
        self._by_id.update((e.event_id, e) for e in batch)
        self._heads[stream] = (batch[-1].version, batch[-1].hash)
        return AppendResult(
            stream=stream,
            positions=tuple(e.position for e in batch),
            versions=tuple(e.version for e in batch),
        )

    # -- reading -------------------------------------------------------------------------

    async def read_stream(
        self, stream: str, from_version: int = 1, limit: int | None = None
    ) -> list[RecordedEvent]:
        """The stream's events from `from_version` on, in version order ([] if no stream)."""
        category_of(stream)
        held = self._streams.get(stream, [])
        start = max(from_version, 1) - 1
        end = None if limit is None else start + _checked_limit(limit)
        return [self._recorded(e) for e in held[start:end]]


    async def read_all(
        self,
        after_position: int = 0,
        limit: int = 500,
        categories: Sequence[str] | None = None,
    ) -> list[RecordedEvent]:
        """Events with a global position above `after_position`, in position order,
        optionally only from some categories (`game`, `league`, …)."""
        limit = _checked_limit(limit)
        after_position = max(after_position, 0)
        if categories is None:
            chosen: Iterable[_Stored] = self._events[after_position : after_position + limit]
        else:
            wanted = {validate_category(c) for c in categories}
            tails = [
                itertools.islice(held, bisect_right(held, after_position, key=_position), None)
                for held in (self._categories.get(c, []) for c in sorted(wanted))
            ]
            chosen = itertools.islice(heapq.merge(*tails, key=_position), limit)
        return [self._recorded(e) for e in chosen]


    async def read_category(
        self, category: str, after_position: int = 0, limit: int = 500
    ) -> list[RecordedEvent]:
        return await self.read_all(after_position, limit, [category])

    async def stream_version(self, stream: str) -> int:
        """The number of events in the stream (0: no stream)."""
        category_of(stream)
        return self._heads.get(stream, (0, GENESIS_HASH))[0]

    async def head_position(self) -> int:
        """The highest global position stored (0: empty store)."""
        return len(self._events)

    # -- auditing ------------------------------------------------------------------------

    async def verify_stream(self, stream: str) -> VerificationReport:
        """Walk one stream's hash chain with PostgreSQL's checks; the report names the first
        broken link."""
        category_of(stream)
        return self._verify(stream)

    async def verify_all(self) -> VerificationReport:
        """Every stream's chain, plus the global positions."""
        problems: list[ChainProblem] = []
        events = 0
        names = sorted(self._heads.keys() | self._streams.keys())
        for name in names:
            report = self._verify(name)
            events += report.events_checked
            problems.extend(report.problems)
        hole = next(
            (n for n, e in enumerate(self._events, start=1) if e.position != n), None
        )
        if hole is not None:
            problems.append(
                ChainProblem(None, None, f"global position {hole} missing (deleted?)", ChainBreak.MISSING)
            )
        return VerificationReport(len(names), events, problems)

    def _verify(self, stream: str) -> VerificationReport:
        rows = self._streams.get(stream, [])
        head = self._heads.get(stream)
        head_row = None if head is None else {"version": head[0], "last_hash": head[1]}
        problem = first_broken_link(stream, rows, head_row)
        return VerificationReport(1, len(rows), [problem] if problem else [])

    def _recorded(self, stored: _Stored) -> RecordedEvent:
        # Decoded on every read, as from PostgreSQL: a caller that changes the dict it got
        # cannot change history.
        schema_version = stored.schema_version
        data = decode_object(stored.data, f"{stored.stream} version {stored.version} data")
        if self.upcasters:
            schema_version, data = self.upcasters.upcast(stored.type, schema_version, data)
        return RecordedEvent(
            position=stored.position,
            stream=stored.stream,
            version=stored.version,
            event_id=stored.event_id,
            type=stored.type,
            schema_version=schema_version,
            data=data,
            metadata=decode_metadata(stored.metadata),
            recorded_at=stored.recorded_at,
            hash=stored.hash,
            prev_hash=stored.prev_hash,
        )


def _checked_limit(limit: int) -> int:
    if limit < 0:
        raise InvalidEvent(f"limit must be ≥ 0, not {limit}")
    return limit
