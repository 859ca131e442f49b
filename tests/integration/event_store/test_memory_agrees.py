"""The in-memory store keeps what PostgreSQL keeps: the same events appended to both come back
with the same positions, versions, data, metadata and hash chain (all but the clock)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import msgspec

from event_store import (
    ANY,
    NO_STREAM,
    EventMetadata,
    MemoryEventStore,
    NewEvent,
    PostgresEventStore,
    RecordedEvent,
)


def _without_clock(events: list[RecordedEvent]) -> list[RecordedEvent]:
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    return [msgspec.structs.replace(e, recorded_at=epoch) for e in events]


async def test_the_same_events_get_the_same_chain_in_memory_and_in_postgresql(
    store: PostgresEventStore,
) -> None:
    memory = MemoryEventStore()
    ids = uuid.UUID("0b9f3c1e-4a55-4e0f-8d43-5a3d2f1c7e61")  # fixed ids: the hashes cover them
    metadata = EventMetadata(command_id="cmd-1", actor="player:ann", correlation_id="g1")
    started = NewEvent(type="GameStarted", data={"seats": 5, "b": [1.5, None]}, metadata=metadata)
    # JSON as bytes, keys out of order, an escape and raw UTF-8: canonicalised alike
    opened = NewEvent(type="LeagueOpened", data=b'{"z": 1, "a": "Jos\\u00e9 \xe2\x98\x85"}')
    rolled = NewEvent(type="DiceRolled", data={"faces": ["arrow"]}, schema_version=2)
    batches = [
        ("game-1", NO_STREAM, [started]),
        ("league-a", NO_STREAM, [opened]),
        ("game-1", 1, [rolled, rolled, rolled]),
        ("game-2", ANY, [NewEvent(type="DiceRolled", data={})]),
    ]
    for n, (stream, expected, events) in enumerate(batches):
        batch = [
            msgspec.structs.replace(e, event_id=uuid.uuid5(ids, f"{n}/{i}")) for i, e in enumerate(events)
        ]
        in_postgres = await store.append(stream, batch, expected_version=expected)
        in_memory = await memory.append(stream, batch, expected_version=expected)
        assert in_memory == in_postgres
        # a retry is answered alike too
        assert await memory.append(stream, batch, expected_version=expected) == await store.append(
            stream, batch, expected_version=expected
        )

    from_postgres = _without_clock(await store.read_all())
    assert _without_clock(await memory.read_all()) == from_postgres
    assert [e.position for e in from_postgres] == [1, 2, 3, 4, 5, 6]
    for stream in ("game-1", "league-a", "game-2"):
        assert (await memory.stream_version(stream), await memory.verify_stream(stream)) == (
            await store.stream_version(stream),
            await store.verify_stream(stream),
        )
    assert await memory.verify_all() == await store.verify_all()
