"""PostgresEventStore: the EventStore on PostgreSQL via asyncpg.

An append is one call of the SQL function `event_store_append` (see
migrations/0001_event_store.sql): one statement, one round trip, one transaction. Python
computes the batch's hash chain first, against the stream head it believes in (its
`_heads` cache, filled by reads and appends, or one lookup); the function checks that belief
while it holds the stream row, so a stale cache costs a retry, never a broken chain.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import asyncpg
import msgspec

from event_store.batches import PreparedEvent, chain_hashes, prepare_batch, shown_expected, wanted_version
from event_store.codec import Mapper, decode_metadata, decode_object
from event_store.errors import (
    ConcurrencyError,
    DuplicateEventConflict,
    EventStoreError,
    StoreUnavailable,
)
from event_store.hashing import GENESIS_HASH
from event_store.interface import PagedReads, PositionPublisher
from event_store.migrator import migrate
from event_store.records import AppendResult, EventMetadata, ExpectedVersion, NewEvent, RecordedEvent
from event_store.streams import category_of, validate_category
from event_store.upcasting import Upcasters
from event_store.verification import VerificationReport, verify_all, verify_stream

T = TypeVar("T")

# Errors that mean "the database is not there (any more)": for an append, outcome unknown.
CONNECTION_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.InterfaceError,
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,  # 57P01 terminated by administrator, …
)

_WRONG_VERSION = "BE001"
_STORED_DIFFERENTLY = "BE002"
_STALE_HEAD = "BE003"
# A stale head cache or ANY racing other writers: retry with a fresh head this many times.
_MAX_HEAD_RETRIES = 20

_SELECT_EVENTS = """
    SELECT position, stream_name, version, event_id, type, schema_version, data, metadata,
           recorded_at, hash, prev_hash
      FROM events
"""
_READ_STREAM = _SELECT_EVENTS + """
     WHERE stream_name = $1 AND version >= $2 ORDER BY version LIMIT $3"""
_READ_ALL = _SELECT_EVENTS + """
     WHERE position > $1 ORDER BY position LIMIT $2"""
_READ_CATEGORIES = _SELECT_EVENTS + """
     WHERE position > $1 AND category = ANY ($3::text[]) ORDER BY position LIMIT $2"""
_APPEND = """
    SELECT o_position, o_version, o_duplicate
      FROM event_store_append($1, $2, $3, $4, $5, $6, $7, $8::json[], $9::json[], $10)"""

_STORED_BATCH = """
    SELECT o_position, o_version, o_duplicate
      FROM event_store_stored_batch($1, $2, $3, $4, $5::json[], $6::json[])"""


class PostgresEventStore(PagedReads):
    """The event store on an asyncpg pool (which the caller owns unless made by `open`)."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        *,
        mapper: Mapper | None = None,
        upcasters: Upcasters | None = None,
        publisher: PositionPublisher | None = None,
        head_cache_size: int = 10_000,
    ) -> None:
        self.pool = pool
        self.mapper = mapper or Mapper()
        self.upcasters = upcasters or Upcasters()
        self.publisher = publisher
        self._heads: OrderedDict[str, tuple[int, bytes]] = OrderedDict()
        self._head_cache_size = head_cache_size
        self._owns_pool = False

    @classmethod
    async def open(
        cls,
        dsn: str,
        *,
        min_size: int = 2,
        max_size: int = 10,
        apply_migrations: bool = True,
        timeouts: PoolTimeouts | None = None,
        **options: Any,
    ) -> PostgresEventStore:
        """Connect a pool of its own (closed by `close`) and bring the schema up to date."""
        try:
            pool = await create_pool(
                dsn, min_size=min_size, max_size=max_size, timeouts=timeouts or NO_LIMITS
            )
            if apply_migrations:
                async with pool.acquire() as connection:
                    await migrate(connection)
        except CONNECTION_ERRORS as error:
            raise StoreUnavailable(f"cannot reach the event store database: {error}") from error
        store = cls(pool, **options)
        store._owns_pool = True
        return store

    async def close(self) -> None:
        if self._owns_pool:
            await self.pool.close()

    async def __aenter__(self) -> PostgresEventStore:
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
        connection: asyncpg.Connection | None = None,
    ) -> AppendResult:
        """Append `events` to `stream` atomically, if the stream is at `expected_version`
        (a number of events, `NO_STREAM`/0, or `ANY`).

        With `connection`, the append joins the caller's open transaction (e.g. a process
        manager appending in the same transaction as its checkpoint) and commits with it.

        Raises ConcurrencyError (nothing written), DuplicateEventConflict, InvalidEvent
        subclasses for bad input, and StoreUnavailable when the database is unreachable or
        the connection drops - then the batch may have committed, and appending the same
        events again is safe: a stored batch is answered with its original positions.
        """
        category = category_of(stream)
        prepared = prepare_batch(self.mapper, events, metadata)
        wanted = wanted_version(expected_version)
        refresh = False
        for _ in range(_MAX_HEAD_RETRIES):
            base_version, prev_hash = await self._head_for(
                stream, wanted, refresh=refresh, connection=connection
            )
            hashes = chain_hashes(stream, base_version, prev_hash, prepared)
            try:
                rows = await self._call_append(
                    stream, category, base_version, prev_hash, prepared, hashes, connection
                )
            except asyncpg.PostgresError as error:
                code = getattr(error, "sqlstate", None)
                self._heads.pop(stream, None)
                refresh = True
                if code == _WRONG_VERSION:
                    actual = int(getattr(error, "detail", "0") or 0)
                    if wanted is None:
                        continue
                    raise ConcurrencyError(stream, shown_expected(expected_version), actual) from None
                if code == _STORED_DIFFERENTLY:
                    raise DuplicateEventConflict(
                        stream, [p.event_id for p in prepared], str(error)
                    ) from None
                if _is_event_id_race(error):
                    # Some ids are stored already: a retry of a committed batch (answer with
                    # its positions), ids reused for other events (conflict), or a racing
                    # writer that rolled back since (try again).
                    rows = await self._stored_batch(stream, prepared, connection)
                    if rows:
                        return _result(stream, rows)
                    continue
                if code == _STALE_HEAD:
                    continue
                raise
            result = _result(stream, rows)
            if not result.duplicate and connection is None:
                # Only once committed: the caller's transaction may still roll back.
                self._remember_head(stream, result.version, hashes[-1])
                if self.publisher is not None:
                    self.publisher.published(result.last_position)
            return result
        raise ConcurrencyError(stream, shown_expected(expected_version), await self.stream_version(stream))

    async def _head_for(
        self,
        stream: str,
        wanted: int | None,
        *,
        refresh: bool,
        connection: asyncpg.Connection | None,
    ) -> tuple[int, bytes]:
        """The (version, last hash) to chain the batch onto."""
        if wanted == 0:
            return 0, GENESIS_HASH
        cached = None if refresh else self._heads.get(stream)
        if cached is not None and (wanted is None or cached[0] == wanted):
            return cached
        head = await self._fetch_head(stream, connection)
        if wanted is not None and head[0] != wanted:
            # Still call the function: the batch may be a retry of one that committed (it
            # answers with the stored positions) - otherwise it reports the conflict.
            return wanted, GENESIS_HASH
        return head

    async def _fetch_head(
        self, stream: str, connection: asyncpg.Connection | None = None
    ) -> tuple[int, bytes]:
        row = await self._run(
            lambda c: c.fetchrow("SELECT version, last_hash FROM streams WHERE name = $1", stream),
            connection,
        )
        return (0, GENESIS_HASH) if row is None else (row[0], row[1])

    async def _call_append(
        self,
        stream: str,
        category: str,
        base_version: int,
        prev_hash: bytes,
        prepared: list[PreparedEvent],
        hashes: list[bytes],
        connection: asyncpg.Connection | None,
    ) -> list[asyncpg.Record]:
        return await self._run(
            lambda c: c.fetch(
                _APPEND,
                stream,
                category,
                base_version,
                prev_hash,
                [p.event_id for p in prepared],
                [p.type for p in prepared],
                [p.schema_version for p in prepared],
                [p.data.decode() for p in prepared],
                [p.metadata.decode() for p in prepared],
                hashes,
            ),
            connection,
        )

    async def _stored_batch(
        self,
        stream: str,
        prepared: list[PreparedEvent],
        connection: asyncpg.Connection | None,
    ) -> list[asyncpg.Record]:
        try:
            return await self._run(
                lambda c: c.fetch(
                    _STORED_BATCH,
                    stream,
                    [p.event_id for p in prepared],
                    [p.type for p in prepared],
                    [p.schema_version for p in prepared],
                    [p.data.decode() for p in prepared],
                    [p.metadata.decode() for p in prepared],
                ),
                connection,
            )
        except asyncpg.PostgresError as error:
            if getattr(error, "sqlstate", None) == _STORED_DIFFERENTLY:
                raise DuplicateEventConflict(
                    stream, [p.event_id for p in prepared], str(error)
                ) from None
            raise

    def _remember_head(self, stream: str, version: int, last_hash: bytes) -> None:
        self._heads[stream] = (version, last_hash)
        self._heads.move_to_end(stream)
        while len(self._heads) > self._head_cache_size:
            self._heads.popitem(last=False)

    # -- reading -------------------------------------------------------------------------

    async def read_stream(
        self, stream: str, from_version: int = 1, limit: int | None = None
    ) -> list[RecordedEvent]:
        """The stream's events from `from_version` on, in version order ([] if no stream)."""
        category_of(stream)
        rows = await self._run(lambda c: c.fetch(_READ_STREAM, stream, from_version, limit))
        events = [self.to_recorded(row) for row in rows]
        if events and (limit is None or len(events) < limit):
            self._remember_head(stream, events[-1].version, events[-1].hash)
        return events


    async def read_all(
        self,
        after_position: int = 0,
        limit: int = 500,
        categories: Sequence[str] | None = None,
    ) -> list[RecordedEvent]:
        """Events with a global position above `after_position`, in position order,
        optionally only from some categories (`game`, `league`, …)."""
        return await self._run(
            lambda c: self.fetch_all_after(c, after_position, limit, categories)
        )


    async def read_category(
        self, category: str, after_position: int = 0, limit: int = 500
    ) -> list[RecordedEvent]:
        return await self.read_all(after_position, limit, [category])

    async def fetch_all_after(
        self,
        connection: asyncpg.Connection,
        after_position: int,
        limit: int,
        categories: Sequence[str] | None = None,
    ) -> list[RecordedEvent]:
        """`read_all` on a connection the caller holds (a subscription's transaction)."""
        if categories is None:
            rows = await connection.fetch(_READ_ALL, after_position, limit)
        else:
            wanted = [validate_category(c) for c in categories]
            rows = await connection.fetch(_READ_CATEGORIES, after_position, limit, wanted)
        return [self.to_recorded(row) for row in rows]

    async def stream_version(self, stream: str) -> int:
        """The number of events in the stream (0: no stream)."""
        category_of(stream)
        return (await self._fetch_head(stream))[0]

    async def head_position(self) -> int:
        """The highest global position stored (0: empty store)."""
        return await self._run(
            lambda c: c.fetchval("SELECT coalesce(max(position), 0) FROM events")
        )

    # -- auditing ------------------------------------------------------------------------

    async def verify_stream(self, stream: str) -> VerificationReport:
        """Walk one stream's hash chain; the report names the first broken link."""
        category_of(stream)
        return await verify_stream(self.pool, stream)

    async def verify_all(self) -> VerificationReport:
        return await verify_all(self.pool)

    def to_recorded(self, row: asyncpg.Record) -> RecordedEvent:
        event_type: str = row[4]
        schema_version: int = row[5]
        data = decode_object(row[6], f"{row[1]} version {row[2]} data")
        if self.upcasters:
            schema_version, data = self.upcasters.upcast(event_type, schema_version, data)
        return RecordedEvent(
            position=row[0],
            stream=row[1],
            version=row[2],
            event_id=row[3],
            type=event_type,
            schema_version=schema_version,
            data=data,
            metadata=decode_metadata(row[7]),
            recorded_at=row[8],
            hash=row[9],
            prev_hash=row[10],
        )

    async def _run(
        self,
        operation: Callable[[asyncpg.Connection], Awaitable[T]],
        connection: asyncpg.Connection | None = None,
    ) -> T:
        try:
            if connection is not None:
                return await operation(connection)
            async with self.pool.acquire() as acquired:
                return await operation(acquired)
        except CONNECTION_ERRORS as error:
            if isinstance(error, EventStoreError):
                raise
            raise StoreUnavailable(
                f"event store database unavailable ({type(error).__name__}: {error}); an "
                "append may or may not have committed - retrying the same events is safe"
            ) from error


@dataclass(frozen=True, slots=True)
class PoolTimeouts:
    """How long a pool's callers wait for PostgreSQL, in seconds (None: as long as it takes).

    The defaults set no limit but asyncpg's connect timeout, which suits work that may
    legitimately run long (migrations, rebuilds, backups, bulk imports, benchmarks). A process
    answering requests sets them all, so that a stalled server costs a caller seconds, not
    minutes: a stopped server still accepts connections and reads queries but never answers,
    so only the client-side limits (`acquire`, `command`) end the wait; `statement` and
    `idle_in_transaction` are the server's own limits, for a server that is slow rather than
    stopped and for a client that stalls mid-transaction holding locks.
    """

    connect: float | None = 60.0
    """Opening a connection (TCP or socket, then the start-up exchange)."""
    acquire: float | None = None
    """Getting a connection from the pool, including opening one."""
    command: float | None = None
    """One query, client side; then asyncpg cancels it and the connection is thrown away."""
    statement: float | None = None
    """One statement, server side (`statement_timeout`): the server cancels it."""
    idle_in_transaction: float | None = None
    """A transaction left idle this long is ended by the server
    (`idle_in_transaction_session_timeout`), releasing its locks."""

    def server_settings(self) -> dict[str, str]:
        settings: dict[str, str] = {}
        if self.statement is not None:
            settings["statement_timeout"] = _milliseconds(self.statement)
        if self.idle_in_transaction is not None:
            settings["idle_in_transaction_session_timeout"] = _milliseconds(self.idle_in_transaction)
        return settings


NO_LIMITS = PoolTimeouts()

# Releasing a connection whose query timed out waits for the cancellation to reach the
# server; a stalled server never takes it, so give up soon and throw the connection away.
_RELEASE_TIMEOUT_SECONDS = 0.25


class TimedPool(asyncpg.Pool):
    """An asyncpg pool whose every acquire (`pool.acquire()`, `pool.fetchval()`, …) waits at
    most `timeouts.acquire`, also for callers that never pass a timeout themselves."""

    __slots__ = ("timeouts",)

    def __init__(self, *args: Any, timeouts: PoolTimeouts, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.timeouts = timeouts

    def acquire(self, *, timeout: float | None = None) -> Any:
        return super().acquire(timeout=self.timeouts.acquire if timeout is None else timeout)

    async def release(self, connection: Any, *, timeout: float | None = None) -> None:
        if timeout is None and self.timeouts.command is not None:
            timeout = _RELEASE_TIMEOUT_SECONDS
        await super().release(connection, timeout=timeout)


async def create_pool(
    dsn: str, *, min_size: int = 2, max_size: int = 10, timeouts: PoolTimeouts = NO_LIMITS
) -> TimedPool:
    """An asyncpg pool whose release does not cost a round trip, waiting at most `timeouts`.

    asyncpg's default release runs `RESET ALL; UNLISTEN *; …` on the server every time,
    doubling the round trips of a one-statement append. The store leaves no session state
    behind (its advisory locks are transaction-scoped), so releasing only rolls back an
    unfinished transaction, which asyncpg does locally before calling `reset`.
    """

    async def keep_session(connection: asyncpg.Connection) -> None:
        return None

    # asyncpg.create_pool with a pool class of our own (it has no parameter for one)
    pool = TimedPool(
        dsn,
        timeouts=timeouts,
        min_size=min_size,
        max_size=max_size,
        max_queries=50_000,
        max_inactive_connection_lifetime=300.0,
        reset=keep_session,
        loop=None,
        connection_class=asyncpg.Connection,
        record_class=asyncpg.Record,
        timeout=timeouts.connect,
        command_timeout=timeouts.command,
        server_settings=timeouts.server_settings(),
    )
    await pool
    return pool


def _milliseconds(seconds: float) -> str:
    return str(max(1, round(seconds * 1000)))


def _result(stream: str, rows: list[asyncpg.Record]) -> AppendResult:
    return AppendResult(
        stream=stream,
        positions=tuple(row[0] for row in rows),
        versions=tuple(row[1] for row in rows),
        duplicate=bool(rows[0][2]),
    )


def _is_event_id_race(error: asyncpg.PostgresError) -> bool:
    return (
        isinstance(error, asyncpg.UniqueViolationError)
        and getattr(error, "constraint_name", None) == "events_event_id_unique"
    )

