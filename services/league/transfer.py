"""Move a whole league between servers: its events as JSON lines, re-appended idempotently.

A league is its `league-<id>` stream, its club's `club-<id>` stream (members, names) and the
`game-<id>` stream of every game that belongs to it (created with `context.league_id`, or
scheduled by the league). Each line is one stored event exactly as stored: stream, version,
event id, type, schema version, data, metadata and its hash. Importing appends each stream's
events at the versions they had with their own event ids, so importing twice (or after a
partial import) is answered by the store as a duplicate, never written twice; and since the
hash covers stream, version, id and content, each imported event must get the very hash it
had: `import_league` checks that, so a file edited on the way is caught.

Derived data (standings, ratings) is not exported: the projections rebuild it from the events.

An export is a file that leaves the server, so it shows what an anonymous viewer may see
(services/game/edge/visibility.py decides, as for every other channel): a game whose roles are all
public (ended, three players, not yet started) goes in whole; a game with any role still
hidden (in progress) is left out, and a `withheld` line names it with only public facts
(stream, version, status), so the file is the same whichever hidden roles were dealt.
`with_seeds` makes an operator backup instead: every stream whole, hidden roles included, plus
the secret dice seeds of online games in progress, so that they can go on after an import.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Any, TextIO

import asyncpg

from event_store import EventMetadata, NewEvent, PostgresEventStore
from services.game.application.codec import GAME_MAPPER
from services.game.application.session import GameSession
from services.game.edge.visibility import PUBLIC, role_visible

_BATCH = 500
Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class TransferReport:
    streams: int
    events: int
    appended: int
    """Events newly written by an import (0 for an export or a repeated import)."""
    seeds: int = 0
    withheld: int = 0
    """Games left out of an export (or named as left out in an imported file): roles hidden."""


WITHHELD_REASON = (
    "roles still hidden: the game is exported once it has ended (or in an operator backup, --with-seeds)"
)


class HashMismatch(RuntimeError):
    """An imported event did not get the hash it had at the source: the file was altered."""


async def league_streams(pool: asyncpg.Pool, league_id: str) -> list[str]:
    league = f"league-{league_id}"
    rows = await pool.fetch(
        """
        SELECT DISTINCT stream_name FROM events
         WHERE category = 'game' AND type = 'GameCreated' AND data->'context'->>'league_id' = $1
        UNION
        SELECT DISTINCT 'game-' || (data->>'game_id') FROM events
         WHERE stream_name = $2 AND type = 'GameScheduled'
        UNION
        SELECT DISTINCT 'club-' || (data->>'club_id') FROM events
         WHERE stream_name = $2 AND type = 'LeagueFounded'
        """,
        league_id,
        league,
    )
    # a table game scheduled and not started yet has no stream: there is nothing of it to move
    named = sorted({r[0] for r in rows} | {league})
    stored = await pool.fetch("SELECT name FROM streams WHERE name = ANY($1::text[])", named)
    existing = {r[0] for r in stored}
    if league not in existing:
        raise LookupError(f"no league {league_id!r} here")
    return sorted(existing)


async def export_league(
    pool: asyncpg.Pool,
    league_id: str,
    path: Path,
    *,
    with_seeds: bool = False,
    progress: Progress | None = None,
) -> TransferReport:
    """Write the league's streams to `path` (created only once the league is found): what an
    anonymous viewer may see, or with `with_seeds` everything (an operator backup)."""
    streams = await league_streams(pool, league_id)
    # one snapshot: the league and its games as of one moment
    async with pool.acquire() as connection, connection.transaction(isolation="repeatable_read"):
        withheld = [] if with_seeds else await _hidden_games(pool, connection, streams)
        left_out = {w["stream"] for w in withheld}
        exported = [s for s in streams if s not in left_out]
        with path.open("w", encoding="utf-8") as out:
            count = await _write_events(connection, exported, out, progress)
            for marker in withheld:
                out.write(json.dumps({"withheld": marker}, separators=(",", ":")) + "\n")
            seeds = await _write_seeds(connection, streams, out) if with_seeds else 0
    return TransferReport(len(exported), count, 0, seeds, len(withheld))


async def _hidden_games(
    pool: asyncpg.Pool, connection: asyncpg.Connection, streams: list[str]
) -> list[dict[str, Any]]:
    """The games of `streams` in which an anonymous viewer may not see every role, each as the
    public facts its `withheld` line carries."""
    decoder = PostgresEventStore(pool, mapper=GAME_MAPPER)
    hidden: list[dict[str, Any]] = []
    for stream in streams:
        if not stream.startswith("game-"):
            continue
        rows = await connection.fetch(_GAME_EVENTS, stream)
        if not rows:
            continue  # scheduled by the league, not created yet
        recorded = [decoder.to_recorded(r) for r in rows]
        session = GameSession.from_recorded(stream.removeprefix("game-"), recorded)
        if session.game is None:
            continue  # no roles dealt yet
        if all(role_visible(session, PUBLIC, p.id) for p in session.game.state.players):
            continue
        facts = {"stream": stream, "version": session.version, "status": session.status.value}
        hidden.append({**facts, "reason": WITHHELD_REASON})
    return hidden


_GAME_EVENTS = """
    SELECT position, stream_name, version, event_id, type, schema_version, data, metadata,
           recorded_at, hash, prev_hash
      FROM events WHERE stream_name = $1 ORDER BY version
"""


async def _write_events(
    connection: asyncpg.Connection, streams: list[str], out: TextIO, progress: Progress | None
) -> int:
    count = 0
    cursor = connection.cursor(
        """
        SELECT stream_name, version, event_id, type, schema_version, data::text AS data,
               metadata::text AS metadata, hash
          FROM events WHERE stream_name = ANY($1::text[]) ORDER BY position
        """,
        streams,
    )
    async for row in cursor:
        out.write(json.dumps(_line(row), ensure_ascii=False, separators=(",", ":")) + "\n")
        count += 1
        if progress is not None:
            progress(1)
    return count


async def _write_seeds(connection: asyncpg.Connection, streams: list[str], out: TextIO) -> int:
    games = [s.removeprefix("game-") for s in streams if s.startswith("game-")]
    rows = await connection.fetch(
        "SELECT game_id, seed FROM game_seeds WHERE game_id = ANY($1::text[])", games
    )
    for row in rows:
        out.write(json.dumps({"seed": {"game_id": row["game_id"], "seed": bytes(row["seed"]).hex()}}) + "\n")
    return len(rows)


def _line(row: asyncpg.Record) -> dict[str, Any]:
    return {
        "stream": row["stream_name"],
        "version": row["version"],
        "event_id": str(row["event_id"]),
        "type": row["type"],
        "schema_version": row["schema_version"],
        "data": json.loads(row["data"]),
        "metadata": json.loads(row["metadata"]),
        "hash": bytes(row["hash"]).hex(),
    }


def read_lines(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        for number, text in enumerate(handle, start=1):
            if text.strip():
                try:
                    yield json.loads(text)
                except json.JSONDecodeError as error:
                    raise ValueError(f"{path}:{number}: not JSON: {error}") from None


async def import_league(
    store: PostgresEventStore, lines: Sequence[dict[str, Any]], *, progress: Progress | None = None
) -> TransferReport:
    """Append every stream of an export at its original versions (duplicates are no-ops)."""
    events = sorted((line for line in lines if "stream" in line), key=lambda e: (e["stream"], e["version"]))
    seeds = [line["seed"] for line in lines if "seed" in line]
    withheld = sum(1 for line in lines if "withheld" in line)
    streams = appended = 0
    for stream, group in groupby(events, key=lambda e: e["stream"]):
        streams += 1
        batch = list(group)
        # A stream that has grown since an earlier import (a game withheld then, ended now)
        # gets only its new events; the ones it holds are checked by hash below.
        held = await store.stream_version(stream)
        fresh = [e for e in batch if e["version"] > held]
        if progress is not None and len(fresh) < len(batch):
            progress(len(batch) - len(fresh))
        for start in range(0, len(fresh), _BATCH):
            chunk = fresh[start : start + _BATCH]
            expected = chunk[0]["version"] - 1
            result = await store.append(stream, [_new_event(e) for e in chunk], expected_version=expected)
            if not result.duplicate:
                appended += len(chunk)
            if progress is not None:
                progress(len(chunk))
        await _check_hashes(store, stream, batch)
    for seed in seeds:
        await store.pool.execute(
            "INSERT INTO game_seeds (game_id, seed) VALUES ($1, $2) ON CONFLICT (game_id) DO NOTHING",
            seed["game_id"],
            bytes.fromhex(seed["seed"]),
        )
    return TransferReport(streams, len(events), appended, len(seeds), withheld)


def _new_event(line: dict[str, Any]) -> NewEvent:
    return NewEvent(
        type=line["type"],
        data=line["data"],
        schema_version=line["schema_version"],
        event_id=uuid.UUID(line["event_id"]),
        metadata=EventMetadata(**line["metadata"]),
    )


async def _check_hashes(store: PostgresEventStore, stream: str, lines: list[dict[str, Any]]) -> None:
    stored = {
        r["version"]: bytes(r["hash"]).hex()
        for r in await store.pool.fetch("SELECT version, hash FROM events WHERE stream_name = $1", stream)
    }
    for line in lines:
        if stored.get(line["version"]) != line["hash"]:
            raise HashMismatch(
                f"{stream} v{line['version']}: the imported event's hash differs from the exported one "
                "(the file was changed, or the target holds other events under these ids)"
            )
