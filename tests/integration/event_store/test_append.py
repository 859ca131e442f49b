"""Appending: expected versions, atomic batches, idempotent retries, and what comes back."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import msgspec
import pytest

from event_store import (
    ANY,
    GENESIS_HASH,
    NO_STREAM,
    ConcurrencyError,
    DuplicateEventConflict,
    EventMetadata,
    InvalidEvent,
    Mapper,
    NewEvent,
    PostgresEventStore,
)


async def test_a_batch_is_appended_in_order_and_read_back_whole(
    store: PostgresEventStore, make_event: Callable[..., NewEvent]
) -> None:
    metadata = EventMetadata(correlation_id="c-1", actor="alice", command_id="cmd-1")
    events = [
        NewEvent(type="GameStarted", data={"players": 5}, metadata=metadata),
        NewEvent(type="DiceRolled", data=b'{"faces": ["gatling", "dynamite"], "roll": 1}'),
    ]
    result = await store.append("game-1", events, expected_version=NO_STREAM)

    assert result.positions == (1, 2)
    assert result.versions == (1, 2)
    assert result.version == 2
    assert result.duplicate is False
    recorded = await store.read_stream("game-1")
    assert [e.type for e in recorded] == ["GameStarted", "DiceRolled"]
    assert [e.event_id for e in recorded] == [e.event_id for e in events]
    assert recorded[0].metadata == metadata
    assert recorded[1].data == {"faces": ["gatling", "dynamite"], "roll": 1}
    assert recorded[0].prev_hash == GENESIS_HASH
    assert recorded[1].prev_hash == recorded[0].hash
    assert recorded[0].category == "game"
    assert recorded[0].recorded_at <= recorded[1].recorded_at


async def test_expected_version_must_match(
    store: PostgresEventStore, make_event: Callable[..., NewEvent]
) -> None:
    await store.append("game-2", [make_event(), make_event()], expected_version=0)
    with pytest.raises(ConcurrencyError) as stale:
        await store.append("game-2", [make_event()], expected_version=1)
    assert (stale.value.stream, stale.value.expected, stale.value.actual) == ("game-2", 1, 2)
    assert "game-2: expected version 1, but the stream is at 2" in str(stale.value)
    with pytest.raises(ConcurrencyError) as exists:
        await store.append("game-2", [make_event()], expected_version=NO_STREAM)
    assert exists.value.expected == "no_stream"
    with pytest.raises(ConcurrencyError):
        await store.append("game-nope", [make_event()], expected_version=3)
    assert await store.stream_version("game-2") == 2
    assert await store.stream_version("game-nope") == 0
    assert await store.head_position() == 2

    result = await store.append("game-2", [make_event()], expected_version=2)
    assert result.version == 3
    assert (await store.append("game-2", [make_event()], expected_version=ANY)).version == 4
    assert (await store.append("game-new", [make_event()], expected_version=ANY)).version == 1


async def test_a_fresh_store_instance_appends_without_a_cached_head(
    store: PostgresEventStore, make_event: Callable[..., NewEvent]
) -> None:
    await store.append("game-3", [make_event()], expected_version=NO_STREAM)
    other = PostgresEventStore(store.pool)  # another process, in effect: empty head cache
    await other.append("game-3", [make_event()], expected_version=1)
    # The first instance's cached head (version 1) is now stale; it must notice, not fork.
    with pytest.raises(ConcurrencyError):
        await store.append("game-3", [make_event()], expected_version=1)
    await store.append("game-3", [make_event()], expected_version=ANY)
    assert [e.version for e in await store.read_stream("game-3")] == [1, 2, 3]
    assert (await store.verify_stream("game-3")).ok


async def test_retrying_a_committed_batch_returns_the_original_positions(
    store: PostgresEventStore, make_event: Callable[..., NewEvent]
) -> None:
    batch = [make_event(roll=1), make_event(roll=2)]
    first = await store.append("game-4", batch, expected_version=NO_STREAM)
    await store.append("game-4", [make_event()], expected_version=2)

    # The caller never heard back and retries with its original expected version.
    retry = await store.append("game-4", batch, expected_version=NO_STREAM)
    assert retry.duplicate is True
    assert (retry.positions, retry.versions) == (first.positions, first.versions)
    assert len(await store.read_stream("game-4")) == 3


async def test_a_partial_or_altered_retry_is_refused(
    store: PostgresEventStore, make_event: Callable[..., NewEvent]
) -> None:
    stored = make_event(roll=1)
    await store.append("game-5", [stored], expected_version=NO_STREAM)

    with pytest.raises(DuplicateEventConflict, match="1 of 2 event ids"):
        await store.append("game-5", [stored, make_event()], expected_version=ANY)
    altered = NewEvent(type=stored.type, data={"roll": 99}, event_id=stored.event_id)
    with pytest.raises(DuplicateEventConflict):
        await store.append("game-5", [altered], expected_version=ANY)
    with pytest.raises(DuplicateEventConflict):
        await store.append("game-6", [stored], expected_version=NO_STREAM)
    assert await store.head_position() == 1


async def test_bad_batches_are_refused_before_writing(
    store: PostgresEventStore, make_event: Callable[..., NewEvent]
) -> None:
    with pytest.raises(InvalidEvent, match="at least one event"):
        await store.append("game-7", [], expected_version=NO_STREAM)
    twice = make_event()
    with pytest.raises(InvalidEvent, match="twice"):
        await store.append("game-7", [twice, twice], expected_version=NO_STREAM)
    with pytest.raises(InvalidEvent, match="expected_version"):
        await store.append("game-7", [make_event()], expected_version=-1)
    assert await store.head_position() == 0


async def test_msgspec_structs_go_through_the_mapper(database_dsn: str) -> None:
    class PlayerJoined(msgspec.Struct, frozen=True):
        player: str
        seat: int

    mapper = Mapper()
    mapper.register(PlayerJoined, schema_version=1)
    async with await PostgresEventStore.open(database_dsn, mapper=mapper) as store:
        metadata = EventMetadata(command_id="join-1")
        await store.append(
            "league-9", [PlayerJoined("ann", 1)], expected_version=NO_STREAM, metadata=metadata
        )
        explicit = mapper.to_new_event(PlayerJoined("bob", 2), event_id=uuid.uuid4())
        await store.append("league-9", [explicit], expected_version=1)
        recorded = await store.read_stream("league-9")
        assert [mapper.to_domain(e) for e in recorded] == [
            PlayerJoined("ann", 1),
            PlayerJoined("bob", 2),
        ]
        assert recorded[0].type == "PlayerJoined"
        assert recorded[0].metadata == metadata
