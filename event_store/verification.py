"""Walk the hash chains and report the first broken link of each stream.

Checks, per stream: versions run 1, 2, 3, … (a hole is a deleted event); each event's
`prev_hash` is its predecessor's `hash` (a mismatch is a re-linked or rewritten chain); each
`hash` recomputes from the stored bytes (a mismatch is an edited event); the stream row's
head is the last event (a mismatch is a deleted tail). Across the store: positions run 1, 2,
3, … (a hole is a deleted event).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

import asyncpg

from event_store.errors import EventStoreError
from event_store.hashing import GENESIS_HASH, event_hash

Executor = asyncpg.Pool | asyncpg.Connection


class ChainBreak(StrEnum):
    """What a broken link says happened, for readers that act on the finding (the audit puts
    it in its own words) rather than print `ChainProblem.message`."""

    MISSING = "missing"
    """Versions (or a global position) absent: deleted events or a deleted tail."""
    RELINKED = "relinked"
    """An event's `prev_hash` is not its predecessor's hash: the history before it rewritten."""
    EDITED = "edited"
    """An event's hash does not recompute from its stored bytes."""
    HEAD = "head"
    """The stream row's head does not match the last event."""
    STREAM_ROW_MISSING = "stream-row-missing"
    """Events without their stream row."""
    NO_STREAM = "no-stream"
    """Neither events nor a stream row."""


@dataclass(frozen=True, slots=True)
class ChainProblem:
    """The first broken link of a stream (`stream` None: of the global positions).

    `version` is the first version concerned; for `ChainBreak.MISSING`, `last_missing` is the
    last absent one. `kind` is None only for a problem built outside this module.
    """

    stream: str | None
    version: int | None
    message: str
    kind: ChainBreak | None = None
    last_missing: int | None = None

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class VerificationReport:
    streams_checked: int
    events_checked: int
    problems: list[ChainProblem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def first_problem(self) -> ChainProblem | None:
        return self.problems[0] if self.problems else None

    def raise_if_broken(self) -> None:
        if self.problems:
            raise TamperDetected(self)


class TamperDetected(EventStoreError):
    """A hash chain does not verify: some stored history was changed."""

    def __init__(self, report: VerificationReport) -> None:
        self.report = report
        super().__init__("; ".join(str(p) for p in report.problems))


_STREAM_EVENTS = """
    SELECT version, event_id, type, schema_version, data, metadata, prev_hash, hash
      FROM events WHERE stream_name = $1 ORDER BY version
"""


async def verify_stream(executor: Executor, stream: str) -> VerificationReport:
    head = await executor.fetchrow("SELECT version, last_hash FROM streams WHERE name = $1", stream)
    rows = await executor.fetch(_STREAM_EVENTS, stream)
    problem = first_broken_link(stream, rows, head)
    return VerificationReport(1, len(rows), [problem] if problem else [])


async def verify_all(executor: Executor) -> VerificationReport:
    """Every stream's chain, plus the global positions."""
    names = [
        row[0]
        for row in await executor.fetch(
            "SELECT name FROM streams UNION SELECT DISTINCT stream_name FROM events ORDER BY 1"
        )
    ]
    problems: list[ChainProblem] = []
    events = 0
    for name in names:
        report = await verify_stream(executor, name)
        events += report.events_checked
        problems.extend(report.problems)
    hole = await executor.fetchval(
        """
        SELECT expected FROM (
            SELECT position, coalesce(lag(position) OVER (ORDER BY position), 0) + 1 AS expected
              FROM events) AS p
         WHERE position <> expected ORDER BY position LIMIT 1
        """
    )
    if hole is not None:
        problems.append(
            ChainProblem(None, None, f"global position {hole} missing (deleted?)", ChainBreak.MISSING)
        )
    return VerificationReport(len(names), events, problems)


def first_broken_link(
    stream: str, rows: list[asyncpg.Record], head: asyncpg.Record | None
) -> ChainProblem | None:
    expected_version = 1
    prev_hash = GENESIS_HASH
    for row in rows:
        version = row["version"]
        if version != expected_version:
            return _missing(stream, expected_version, version)
        if row["prev_hash"] != prev_hash:
            return ChainProblem(
                stream,
                version,
                f"{stream} version {version}: prev_hash does not match the hash of version "
                f"{version - 1} (history before it rewritten?)",
                ChainBreak.RELINKED,
            )
        recomputed = event_hash(
            prev_hash=row["prev_hash"],
            stream=stream,
            version=version,
            event_id=row["event_id"],
            event_type=row["type"],
            schema_version=row["schema_version"],
            data=row["data"].encode(),
            metadata=row["metadata"].encode(),
        )
        if recomputed != row["hash"]:
            return ChainProblem(
                stream,
                version,
                f"{stream} version {version}: stored hash does not match its content (edited?)",
                ChainBreak.EDITED,
            )
        prev_hash = row["hash"]
        expected_version += 1
    last_version = expected_version - 1
    if head is None:
        if rows:
            return ChainProblem(
                stream, None, f"{stream}: stream row missing (deleted?)", ChainBreak.STREAM_ROW_MISSING
            )
        return ChainProblem(stream, None, f"{stream}: no such stream", ChainBreak.NO_STREAM)
    if head["version"] > last_version:
        return _missing(stream, last_version + 1, head["version"] + 1)
    if head["version"] != last_version or head["last_hash"] != prev_hash:
        return ChainProblem(
            stream,
            last_version,
            f"{stream}: stream head (version {head['version']}) does not "
            f"match its last event (version {last_version}) (edited?)",
            ChainBreak.HEAD,
        )
    return None


def _missing(stream: str, first_missing: int, next_present: int) -> ChainProblem:
    last_missing = next_present - 1
    if last_missing == first_missing:
        message = f"{stream} version {first_missing} missing (deleted?)"
    else:
        message = f"{stream} versions {first_missing}-{last_missing} missing (deleted?)"
    return ChainProblem(stream, first_missing, message, ChainBreak.MISSING, last_missing)
