"""Catch-up subscriptions with a checkpoint committed together with the work.

Delivery is at least once: a batch is read after the subscriber's checkpoint, handled, and
the checkpoint moved - all in ONE PostgreSQL transaction on the connection the handler gets.
A projection that writes its read model through that connection therefore applies every
event exactly once: if the process dies mid-batch, the rows and the checkpoint roll back
together and the batch is handled again after the restart. (Side effects outside that
transaction - a Redis publish, an e-mail - happen at least once; use `after_commit` for
them.) Reading the checkpoint `FOR UPDATE` also makes two runners of the same subscription
take turns instead of applying a batch twice.

An event the handler cannot apply (a poison event) must not stop everything else, nor be
retried forever by restart after restart. A following subscription (`run`) therefore rolls
the batch back, walks up to the failing event one event per transaction, and tries that
event alone a few times (a transient error is not a poison); if it still fails, the
subscription is *held* there: a row in `subscription_holds` names the position, the event
and the error, and the subscription applies nothing more until an operator resolves the
hold with `retry_held` (after a fix) or `skip_held` (that one event, with a reason). Every
runner checks for a hold under the checkpoint's lock, so copies of a subscription in other
processes stop at the hold too, and a resolution is picked up within a poll interval.
Only `run` holds: `handle_next_batch` and `run_until_idle` (rebuilds, tests) raise the
handler's error as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import unicodedata
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

import asyncpg

from event_store.errors import EventStoreError, StoreUnavailable
from event_store.postgres_store import CONNECTION_ERRORS, PostgresEventStore
from event_store.records import RecordedEvent
from event_store.streams import validate_category
from event_store.wakeups import PollingOnly, WakeupSource

log = logging.getLogger(__name__)

EventHandler = Callable[[RecordedEvent, asyncpg.Connection], Awaitable[None]]
AfterCommit = Callable[[Sequence[RecordedEvent]], Awaitable[None]]

ERROR_MESSAGE_LIMIT = 200
REASON_LIMIT = 500


async def checkpoint_of(executor: asyncpg.Pool | asyncpg.Connection, name: str) -> int:
    """Where subscriber `name` is: the last position it handled (0 before the first)."""
    position = await executor.fetchval("SELECT position FROM checkpoints WHERE name = $1", name)
    return position or 0


async def lock_checkpoint(connection: asyncpg.Connection, name: str) -> int:
    """Subscriber `name`'s position, its row created at 0 if new and locked `FOR UPDATE` until
    the transaction ends: whoever else works for `name` waits for that, then reads the moved
    position, so no batch is applied twice."""
    await connection.execute(
        "INSERT INTO checkpoints (name, position) VALUES ($1, 0) ON CONFLICT (name) DO NOTHING", name
    )
    return await connection.fetchval("SELECT position FROM checkpoints WHERE name = $1 FOR UPDATE", name)


async def move_checkpoint(connection: asyncpg.Connection, name: str, position: int) -> None:
    """Record that subscriber `name` handled everything up to `position` (in the transaction
    that wrote the work, so both commit together)."""
    await connection.execute(
        "UPDATE checkpoints SET position = $2, updated_at = clock_timestamp() WHERE name = $1",
        name,
        position,
    )


# --- poison events: describing a failure, holds --------------------------------------------

_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_ARGUMENT_VALUE = re.compile(r"(argument \$\d+): .*?(\s\([^()]*\))?$")
_LONG_TOKEN = re.compile(r"\b[0-9A-Za-z_+/=-]{16,}\b")


def describe_error(error: BaseException) -> tuple[str, str]:
    """(error class, message) safe to store, log and show on `/health`.

    A handler's or the database's message may quote the event's payload ('value "…" is out
    of range', 'invalid input for query argument $5: …'), and a payload may carry what only
    some viewers may see. So the message keeps its shape and loses its literals: quoted
    text, an argument's value and long tokens become '…'; only its first line, bounded."""
    kind = type(error)
    error_class = kind.__qualname__
    if kind.__module__ != "builtins":
        error_class = f"{kind.__module__}.{error_class}"
    text = (str(error).splitlines() or [""])[0]
    text = _QUOTED.sub("'…'", text)
    text = _ARGUMENT_VALUE.sub(lambda m: f"{m[1]}: …{m[2] or ''}", text)
    text = _LONG_TOKEN.sub("…", text)
    sqlstate = getattr(error, "sqlstate", None)
    if isinstance(sqlstate, str) and sqlstate:
        text = f"[{sqlstate}] {text}"
    if len(text) > ERROR_MESSAGE_LIMIT:
        text = text[: ERROR_MESSAGE_LIMIT - 1] + "…"
    return error_class, text


@dataclass(frozen=True, slots=True)
class EventRef:
    """Which event: enough to find it, nothing of its content."""

    position: int
    stream: str
    version: int
    type: str

    @classmethod
    def of(cls, event: RecordedEvent) -> EventRef:
        return cls(event.position, event.stream, event.version, event.type)


@dataclass(frozen=True, slots=True)
class FailedAttempt:
    """One failed try at an event, as told to `Subscription.on_failure`."""

    subscription: str
    event: EventRef
    error_class: str
    error_message: str
    attempt: int
    held: bool
    """True on the attempt after which the subscription is held."""


FailureListener = Callable[[FailedAttempt], None]


@dataclass(frozen=True, slots=True)
class Hold:
    """A row of `subscription_holds`: where a subscriber stopped, why, and how it ended."""

    id: int
    name: str
    position: int
    stream: str
    version: int
    event_type: str
    error_class: str
    error_message: str
    attempts: int
    first_failed_at: datetime
    last_failed_at: datetime
    status: str
    """held, retried or skipped."""
    resolved_at: datetime | None
    resolved_by: str | None
    reason: str | None

    @classmethod
    def from_row(cls, row: asyncpg.Record) -> Hold:
        return cls(
            row["id"], row["name"], row["position"], row["stream_name"], row["stream_version"],
            row["event_type"], row["error_class"], row["error_message"], row["attempts"],
            row["first_failed_at"], row["last_failed_at"], row["status"], row["resolved_at"],
            row["resolved_by"], row["reason"],
        )  # fmt: skip

    def to_json(self) -> dict[str, object]:
        return {
            "position": self.position,
            "stream": self.stream,
            "version": self.version,
            "event_type": self.event_type,
            "error": f"{self.error_class}: {self.error_message}",
            "attempts": self.attempts,
            "first_failed_at": self.first_failed_at.isoformat(),
            "last_failed_at": self.last_failed_at.isoformat(),
            "status": self.status,
            **(
                {"resolved_at": self.resolved_at.isoformat(), "resolved_by": self.resolved_by,
                 "reason": self.reason}
                if self.resolved_at is not None
                else {}
            ),
        }  # fmt: skip


class NotHeld(EventStoreError, LookupError):
    """The subscriber has no open hold to resolve."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"{name} is not held")


class SkipRefused(EventStoreError, ValueError):
    """A skip that does not name exactly the held event, or gives no usable reason."""


async def open_holds(
    executor: asyncpg.Pool | asyncpg.Connection, names: Sequence[str] | None = None
) -> dict[str, Hold]:
    """The open holds by subscriber (all of them, or those of `names`)."""
    rows = await executor.fetch(
        "SELECT * FROM subscription_holds WHERE status = 'held'"
        " AND ($1::text[] IS NULL OR name = ANY($1::text[])) ORDER BY name",
        None if names is None else list(names),
    )
    return {row["name"]: Hold.from_row(row) for row in rows}


async def hold_history(
    executor: asyncpg.Pool | asyncpg.Connection, name: str | None = None, limit: int = 20
) -> list[Hold]:
    """The newest holds, open or resolved (of subscriber `name`, or of all)."""
    rows = await executor.fetch(
        "SELECT * FROM subscription_holds WHERE ($1::text IS NULL OR name = $1) ORDER BY id DESC LIMIT $2",
        name,
        limit,
    )
    return [Hold.from_row(row) for row in rows]


def _checked_text(value: str | None, field: str, *, required: bool) -> str | None:
    if value is None or not value.strip():
        if required:
            raise SkipRefused(f"{field}: required, and not blank")
        return None
    if len(value) > REASON_LIMIT:
        raise SkipRefused(f"{field}: at most {REASON_LIMIT} characters")
    # control and format characters (NUL, ANSI escapes, bidi overrides) could forge what an
    # operator reads back in `status` or a terminal
    if any(unicodedata.category(c) in ("Cc", "Cf") for c in value):
        raise SkipRefused(f"{field}: control characters are not allowed")
    return value.strip()


_RESOLVE = """
    UPDATE subscription_holds
       SET status = $2, resolved_at = clock_timestamp(), resolved_by = $3, reason = $4
     WHERE name = $1 AND status = 'held'
 RETURNING *
"""


async def retry_held(pool: asyncpg.Pool, name: str, *, by: str, reason: str | None = None) -> Hold:
    """End `name`'s hold: its runners try the held event again at their next poll (after a
    fix was deployed, or to see whether the cause was passing). Raises NotHeld."""
    reason = _checked_text(reason, "reason", required=False)
    by = _checked_text(by, "by", required=True) or ""
    row = await pool.fetchrow(_RESOLVE, name, "retried", by, reason)
    if row is None:
        raise NotHeld(name)
    return Hold.from_row(row)


async def skip_held(pool: asyncpg.Pool, name: str, position: int, *, by: str, reason: str) -> Hold:
    """Skip the one event `name` is held at: the checkpoint moves to `position` in the
    transaction that records who skipped it, when and why. Refused (SkipRefused) unless
    `position` is the held one; NotHeld when nothing is held."""
    checked_reason = _checked_text(reason, "reason", required=True)
    checked_by = _checked_text(by, "by", required=True)
    async with pool.acquire() as connection, connection.transaction():
        # the checkpoint first, as a runner does (then the hold): the same order, no deadlock
        checkpoint = await lock_checkpoint(connection, name)
        row = await connection.fetchrow(
            "SELECT * FROM subscription_holds WHERE name = $1 AND status = 'held' FOR UPDATE", name
        )
        if row is None:
            raise NotHeld(name)
        if row["position"] != position:
            raise SkipRefused(
                f"{name} is held at position {row['position']}, not {position}: only the held event "
                "can be skipped"
            )
        if checkpoint >= position:
            raise SkipRefused(f"{name} is already past position {position}; retry it instead")
        await move_checkpoint(connection, name, position)
        resolved = await connection.fetchrow(_RESOLVE, name, "skipped", checked_by, checked_reason)
    log.warning("subscription %s skipped position %d by %s", name, position, checked_by)
    return Hold.from_row(resolved)


async def release_holds(connection: asyncpg.Connection, name: str, *, by: str, reason: str) -> bool:
    """End `name`'s hold, if any, in the caller's transaction (a rebuild starting over)."""
    return await connection.fetchrow(_RESOLVE, name, "retried", by, reason) is not None


async def _held_at(connection: asyncpg.Connection, name: str) -> int | None:
    return await connection.fetchval(
        "SELECT position FROM subscription_holds WHERE name = $1 AND status = 'held'", name
    )


# --- the subscription -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Failure:
    event: EventRef | None
    """None: reading the batch failed (an event that cannot be decoded), not the handler."""
    error: Exception


@dataclass(frozen=True, slots=True)
class _Outcome:
    events: Sequence[RecordedEvent] = ()
    held_at: int | None = None
    failure: _Failure | None = None


class Subscription:
    """Feeds the store's global stream (or some categories of it) to `handler`.

        async def project(event: RecordedEvent, tx: asyncpg.Connection) -> None:
            await tx.execute("INSERT INTO game_summaries …")

        subscription = Subscription(store, "game-summaries", project, categories=["game"])
        await subscription.run_until_idle()      # catch up, then return
        await subscription.run(stop)             # follow the store until `stop` is set

    A handler error rolls its whole batch back. `handle_next_batch` and `run_until_idle`
    raise it; `run` tries the event alone `attempts` times in all, then holds (see the
    module docstring). `on_failure` is told of every failed attempt (metrics).
    """

    def __init__(
        self,
        store: PostgresEventStore,
        name: str,
        handler: EventHandler,
        *,
        categories: Sequence[str] | None = None,
        batch_size: int = 256,
        wakeups: WakeupSource | None = None,
        poll_interval: float = 1.0,
        after_commit: AfterCommit | None = None,
        attempts: int = 3,
        retry_delay: float = 0.5,
        on_failure: FailureListener | None = None,
    ) -> None:
        if not name:
            raise ValueError("a subscription needs a name (its checkpoint key)")
        if attempts < 1:
            raise ValueError("attempts must be at least 1")
        self.store = store
        self.name = name
        self.handler = handler
        self.categories = None if categories is None else [validate_category(c) for c in categories]
        self.batch_size = batch_size
        self.wakeups = wakeups or PollingOnly()
        self.poll_interval = poll_interval
        self.after_commit = after_commit
        self.attempts = attempts
        self.retry_delay = retry_delay
        self.on_failure = on_failure

    async def position(self) -> int:
        return await checkpoint_of(self.store.pool, self.name)

    async def held_at(self) -> int | None:
        """The position this subscription is held at (None: not held)."""
        async with self.store.pool.acquire() as connection:
            return await _held_at(connection, self.name)

    async def handle_next_batch(self) -> int:
        """Handle up to `batch_size` events after the checkpoint in one transaction;
        return how many were handled (0: caught up). A handler error propagates."""
        outcome = await self._handle(self.batch_size, follow=False)
        if outcome.failure is not None:
            raise outcome.failure.error
        return len(outcome.events)

    async def _handle(self, limit: int, *, follow: bool, fresh: bool = False) -> _Outcome:
        """One transaction: lock the checkpoint, (when following) stop at a hold, read and
        handle up to `limit` events, move the checkpoint. A failure of the handler (or of
        decoding an event) rolls it all back and is returned, not raised. `fresh`: forget
        cached statements first (after a failure or a hold: the fix may have been a schema
        change, and a statement prepared before it still encodes for the old column types)."""
        current: RecordedEvent | None = None
        reading = False
        try:
            async with self.store.pool.acquire() as connection:
                if fresh:
                    await connection.reload_schema_state()
                async with connection.transaction():
                    position = await lock_checkpoint(connection, self.name)
                    if follow and (held := await _held_at(connection, self.name)) is not None:
                        return _Outcome(held_at=held)
                    reading = True
                    events = await self.store.fetch_all_after(connection, position, limit, self.categories)
                    reading = False
                    for event in events:
                        current = event
                        await self.handler(event, connection)
                    current = None
                    if events:
                        await move_checkpoint(connection, self.name, events[-1].position)
        except CONNECTION_ERRORS as error:
            raise StoreUnavailable(f"subscription {self.name}: {error}") from error
        except Exception as error:
            if current is not None:
                return _Outcome(failure=_Failure(EventRef.of(current), error))
            if reading:
                return _Outcome(failure=_Failure(None, error))
            raise  # the checkpoint or the hold table: not an event's fault
        if events and self.after_commit is not None:
            await self.after_commit(events)
        return _Outcome(events=events)

    async def run_until_idle(self) -> int:
        """Catch up with everything committed so far; return how many events were handled."""
        total = 0
        while handled := await self.handle_next_batch():
            total += handled
        return total

    async def run(self, stop: asyncio.Event) -> None:
        """Follow the store until `stop` is set: catch up, then sleep until a wake-up or
        `poll_interval`, whichever comes first. A lost database connection is waited out;
        an event that cannot be applied is retried alone, then held (module docstring)."""
        doorbell = self.wakeups.doorbell()  # before the first read, so no ring is missed
        was_held = False
        while not stop.is_set():
            handled = 0
            try:
                outcome = await self._handle(self.batch_size, follow=True, fresh=was_held)
                was_held = outcome.held_at is not None
                if outcome.failure is not None:
                    await self._isolate(outcome.failure, stop)
                    continue
                handled = len(outcome.events)
            except StoreUnavailable as error:
                log.warning("%s; retrying after %.1fs", error, self.poll_interval)
            if handled < self.batch_size:
                await doorbell.wait(self.poll_interval, stop)

    async def _isolate(self, failure: _Failure, stop: asyncio.Event) -> None:
        """A batch failed: apply the events before the failing one one per transaction, then
        try that one alone until it succeeds or has failed `attempts` times; then hold."""
        target = failure.event.position if failure.event is not None else None
        failures: dict[int, int] = {}
        if failure.event is not None:
            failures[failure.event.position] = 1
            if await self._failed(failure.event, failure.error, 1):
                return
        stepped = 0
        fresh = True
        while not stop.is_set():
            outcome = await self._handle(1, follow=True, fresh=fresh)
            fresh = outcome.failure is not None
            if outcome.held_at is not None:
                return  # another runner held it meanwhile
            if outcome.failure is None:
                if not outcome.events:
                    return  # caught up: whatever failed is no longer there to fail
                stepped += 1
                if (target is not None and outcome.events[-1].position >= target) or (
                    target is None and stepped >= self.batch_size
                ):
                    return  # past the batch that failed: back to whole batches
                continue
            ref = outcome.failure.event or await self._next_event()
            if ref is None:
                raise outcome.failure.error
            attempt = failures[ref.position] = failures.get(ref.position, 0) + 1
            if await self._failed(ref, outcome.failure.error, attempt):
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.retry_delay * 2 ** (attempt - 1))

    async def _failed(self, ref: EventRef, error: Exception, attempt: int) -> bool:
        """Note one failed attempt at `ref`; hold the subscription after the last one. True
        when it is held now."""
        error_class, message = describe_error(error)
        held = attempt >= self.attempts and await self._hold(ref, error_class, message, attempt)
        if self.on_failure is not None:
            self.on_failure(FailedAttempt(self.name, ref, error_class, message, attempt, held))
        if held:
            log.error(
                "subscription %s HELD at position %d (%s version %d, %s) after %d attempts: %s: %s;"
                " resolve with `bang-league projections retry|skip`",
                self.name, ref.position, ref.stream, ref.version, ref.type, attempt, error_class, message,
            )  # fmt: skip
        else:
            log.warning(
                "subscription %s could not apply position %d (%s, attempt %d of %d): %s: %s",
                self.name, ref.position, ref.type, attempt, self.attempts, error_class, message,
            )  # fmt: skip
        return held

    async def _hold(self, ref: EventRef, error_class: str, message: str, attempts: int) -> bool:
        try:
            async with self.store.pool.acquire() as connection, connection.transaction():
                if await lock_checkpoint(connection, self.name) >= ref.position:
                    return False  # another runner applied it meanwhile (with a fix deployed)
                await connection.execute(
                    """
                    INSERT INTO subscription_holds (name, position, stream_name, stream_version,
                        event_type, error_class, error_message, attempts)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                    ON CONFLICT (name) WHERE status = 'held' DO UPDATE
                       SET attempts = subscription_holds.attempts + excluded.attempts,
                           last_failed_at = clock_timestamp(),
                           error_class = excluded.error_class,
                           error_message = excluded.error_message
                    """,
                    self.name, ref.position, ref.stream, ref.version, ref.type, error_class, message,
                    attempts,
                )  # fmt: skip
        except CONNECTION_ERRORS as error:
            raise StoreUnavailable(f"subscription {self.name}: {error}") from error
        return True

    async def _next_event(self) -> EventRef | None:
        """The event after the checkpoint, read without decoding it (it may not decode)."""
        row = await self.store.pool.fetchrow(
            """
            SELECT position, stream_name, version, type FROM events
             WHERE position > coalesce((SELECT position FROM checkpoints WHERE name = $1), 0)
               AND ($2::text[] IS NULL OR category = ANY($2::text[]))
             ORDER BY position LIMIT 1
            """,
            self.name,
            self.categories,
        )
        return None if row is None else EventRef(row[0], row[1], row[2], row[3])
