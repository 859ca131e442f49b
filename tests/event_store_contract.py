"""The event store's contract, written once and run against every backend (the habit of the
eventsourcing library: an abstract test case that each backend's test case subclasses).

A backend's test class subclasses `EventStoreContract` and provides three fixtures:

- `store`: an empty store;
- `open_store`: `await open_store(**options)` opens another store on the same (empty) backend
  with options such as `mapper=` or `upcasters=`, to use as an async context manager;
- `twin`: `twin(store)` is another store object on the same data with nothing cached, as a
  second server process would have (for a store with no cache, `store` itself).

PostgreSQL: tests/integration/event_store/test_postgres_contract.py (real embedded PostgreSQL);
memory: tests/unit/event_store/test_memory_contract.py. What only one backend can show (the
advisory lock, triggers, dropped connections, LISTEN/NOTIFY, SQL tampering) stays beside it.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from event_store import (
    ANY,
    GENESIS_HASH,
    NO_STREAM,
    ConcurrencyError,
    DuplicateEventConflict,
    EventMetadata,
    EventStore,
    InvalidEvent,
    InvalidStreamName,
    Mapper,
    NewEvent,
    PayloadDecodeError,
    UnknownEventType,
    Upcasters,
    event_hash,
)

MakeEvent = Callable[..., NewEvent]
Twin = Callable[[EventStore], EventStore]


def new_event(event_type: str = "DiceRolled", **data: object) -> NewEvent:
    return NewEvent(type=event_type, data=dict(data) or {"faces": ["arrow", "beer"]})


async def fill_game_42(store: EventStore) -> None:
    """Two streams: game-42 with seven rolls, game-43 with one."""
    await store.append("game-42", [new_event(roll=n) for n in range(1, 8)], expected_version=0)
    await store.append("game-43", [new_event(roll=1)], expected_version=NO_STREAM)


class DiceRolled(msgspec.Struct, frozen=True):
    faces: list[str]
    reroll: int


def split_faces(data: dict[str, Any]) -> dict[str, Any]:  # v1 "a,b" → v2 ["a", "b"]
    return {**data, "faces": data["faces"].split(",")}


def add_reroll(data: dict[str, Any]) -> dict[str, Any]:  # v2 → v3 counts rerolls
    return {**data, "reroll": 0}


class EventStoreContract:
    @pytest.fixture
    def make_event(self) -> MakeEvent:
        return new_event

    @pytest.fixture
    async def filled(self, store: EventStore, make_event: MakeEvent) -> None:
        await store.append("game-1", [make_event(n=1), make_event(n=2)], expected_version=NO_STREAM)
        await store.append("league-a", [make_event("LeagueOpened", n=3)], expected_version=NO_STREAM)
        await store.append("game-2", [make_event(n=4)], expected_version=NO_STREAM)
        await store.append("game-1", [make_event(n=5), make_event(n=6)], expected_version=2)

    @pytest.fixture
    async def game_42(self, store: EventStore) -> None:
        await fill_game_42(store)

    # -- appending -----------------------------------------------------------------------

    async def test_a_batch_is_appended_in_order_and_read_back_whole(
        self, store: EventStore, make_event: MakeEvent
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

    async def test_expected_version_must_match(self, store: EventStore, make_event: MakeEvent) -> None:
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
        self, store: EventStore, make_event: MakeEvent, twin: Twin
    ) -> None:
        await store.append("game-3", [make_event()], expected_version=NO_STREAM)
        other = twin(store)  # another process, in effect: empty head cache
        await other.append("game-3", [make_event()], expected_version=1)
        # The first instance's cached head (version 1) is now stale; it must notice, not fork.
        with pytest.raises(ConcurrencyError):
            await store.append("game-3", [make_event()], expected_version=1)
        await store.append("game-3", [make_event()], expected_version=ANY)
        assert [e.version for e in await store.read_stream("game-3")] == [1, 2, 3]
        assert (await store.verify_stream("game-3")).ok

    async def test_retrying_a_committed_batch_returns_the_original_positions(
        self, store: EventStore, make_event: MakeEvent
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
        self, store: EventStore, make_event: MakeEvent
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
        self, store: EventStore, make_event: MakeEvent
    ) -> None:
        with pytest.raises(InvalidEvent, match="at least one event"):
            await store.append("game-7", [], expected_version=NO_STREAM)
        twice = make_event()
        with pytest.raises(InvalidEvent, match="twice"):
            await store.append("game-7", [twice, twice], expected_version=NO_STREAM)
        with pytest.raises(InvalidEvent, match="expected_version"):
            await store.append("game-7", [make_event()], expected_version=-1)
        assert await store.head_position() == 0

    async def test_msgspec_structs_go_through_the_mapper(self, open_store: Callable[..., Any]) -> None:
        class PlayerJoined(msgspec.Struct, frozen=True):
            player: str
            seat: int

        mapper = Mapper()
        mapper.register(PlayerJoined, schema_version=1)
        async with await open_store(mapper=mapper) as store:
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

    # -- races and bad input -------------------------------------------------------------

    async def test_two_writers_at_the_same_moment_exactly_one_wins(
        self, store: EventStore, make_event: MakeEvent, twin: Twin
    ) -> None:
        # Separate store instances where the backend has them: no shared head cache, as in
        # two server processes.
        rivals = [twin(store), twin(store)]
        rounds = 25
        for version in range(rounds):
            outcomes = await asyncio.gather(
                *(
                    rival.append("game-duel", [make_event(by=n)], expected_version=version)
                    for n, rival in enumerate(rivals)
                ),
                return_exceptions=True,
            )
            winners = [o for o in outcomes if not isinstance(o, BaseException)]
            losers = [o for o in outcomes if isinstance(o, BaseException)]
            assert len(winners) == 1, outcomes
            assert len(losers) == 1 and isinstance(losers[0], ConcurrencyError), outcomes
            assert losers[0].actual == version + 1
        events = await store.read_stream("game-duel")
        assert [e.version for e in events] == list(range(1, rounds + 1))
        assert await store.head_position() == rounds  # the losers wrote nothing
        assert (await store.verify_stream("game-duel")).ok

    async def test_bad_input_is_refused_with_a_clear_error_and_nothing_is_written(
        self, store: EventStore
    ) -> None:
        with pytest.raises(PayloadDecodeError, match="event data is not valid JSON"):
            await store.append(
                "game-1", [NewEvent(type="DiceRolled", data=b"\xff\xfe")], expected_version=0
            )
        with pytest.raises(PayloadDecodeError, match="must be a JSON object"):
            await store.append("game-1", [NewEvent(type="X", data=b'"text"')], expected_version=0)
        with pytest.raises(InvalidStreamName, match="'game_1'"):
            await store.append("game_1", [NewEvent(type="X", data={})], expected_version=0)
        assert await store.head_position() == 0

    async def test_decoding_stored_events_names_what_is_wrong(self, store: EventStore) -> None:
        class DiceRolled(msgspec.Struct):
            faces: list[str]

        mapper = Mapper()
        mapper.register(DiceRolled)
        await store.append(
            "game-9",
            [
                NewEvent(type="DiceRolled", data={"faces": "not a list"}),
                NewEvent(type="Mystery", data={}),
                NewEvent(type="DiceRolled", data={"faces": []}, schema_version=2),
            ],
            expected_version=NO_STREAM,
            metadata=None,
        )
        wrong_shape, unknown, too_new = await store.read_stream("game-9")
        with pytest.raises(PayloadDecodeError, match=r"game-9 version 1: DiceRolled data does not fit"):
            mapper.to_domain(wrong_shape)
        with pytest.raises(UnknownEventType, match="'Mystery'"):
            mapper.to_domain(unknown)
        with pytest.raises(PayloadDecodeError, match="schema version 2 but DiceRolled expects 1"):
            mapper.to_domain(too_new)
        assert uuid.UUID(str(wrong_shape.event_id))

    # -- the hash chain ------------------------------------------------------------------

    async def test_an_untouched_store_verifies(self, store: EventStore, game_42: None) -> None:
        report = await store.verify_all()
        assert report.ok, report.problems
        assert (report.streams_checked, report.events_checked) == (2, 8)
        report.raise_if_broken()

    async def test_the_hash_is_the_documented_canonical_encoding(
        self, store: EventStore, game_42: None
    ) -> None:
        second = (await store.read_stream("game-42"))[1]
        assert second.hash == event_hash(
            prev_hash=second.prev_hash,
            stream="game-42",
            version=2,
            event_id=second.event_id,
            event_type="DiceRolled",
            schema_version=1,
            data=b'{"roll":2}',
            metadata=b"{}",
        )

    # -- ordering and reading ------------------------------------------------------------

    async def test_a_polling_reader_sees_every_event_once_in_order_while_many_write(
        self, store: EventStore, make_event: MakeEvent
    ) -> None:
        writers, appends_per_writer = 8, 25
        rng = random.Random(7)
        sizes = [[rng.randint(1, 4) for _ in range(appends_per_writer)] for _ in range(writers)]
        done = asyncio.Event()
        seen: list[int] = []

        async def write(writer: int) -> None:
            for index, size in enumerate(sizes[writer]):
                # Half the writers share streams, so stream locks and retries interleave too.
                stream = f"game-{writer}" if writer % 2 else f"game-shared{index % 3}"
                await store.append(stream, [make_event() for _ in range(size)], expected_version=ANY)

        async def read() -> None:
            last = 0
            while True:
                finished = done.is_set()  # read once more after the writers finished
                batch = await store.read_all(after_position=last, limit=7)
                seen.extend(e.position for e in batch)
                if batch:
                    last = batch[-1].position
                elif finished:
                    return
                else:
                    await asyncio.sleep(0)

        reader = asyncio.create_task(read())
        await asyncio.gather(*(write(w) for w in range(writers)))
        done.set()
        await reader

        stored = [e.position async for e in store.iter_all(batch_size=100)]
        total = sum(map(sum, sizes))
        assert stored == list(range(1, total + 1))  # gap-free
        assert seen == stored  # every committed event, once, in order, nothing skipped
        assert (await store.verify_all()).ok

    async def test_read_a_stream_from_a_version(self, store: EventStore, filled: None) -> None:
        assert [e.data["n"] for e in await store.read_stream("game-1")] == [1, 2, 5, 6]
        assert [e.version for e in await store.read_stream("game-1", from_version=3)] == [3, 4]
        assert [e.version for e in await store.read_stream("game-1", 2, limit=2)] == [2, 3]
        assert await store.read_stream("game-404") == []
        assert [e.version async for e in store.iter_stream("game-1", batch_size=3)] == [1, 2, 3, 4]

    async def test_read_the_global_stream_and_categories(self, store: EventStore, filled: None) -> None:
        everything = await store.read_all()
        assert [e.data["n"] for e in everything] == [1, 2, 3, 4, 5, 6]
        assert [e.position for e in everything] == [1, 2, 3, 4, 5, 6]
        assert [e.position for e in await store.read_all(after_position=4, limit=1)] == [5]
        games = await store.read_category("game", after_position=1)
        assert [(e.stream, e.position) for e in games] == [
            ("game-1", 2),
            ("game-2", 4),
            ("game-1", 5),
            ("game-1", 6),
        ]
        both = await store.read_all(categories=["league", "game"], limit=3)
        assert [e.position for e in both] == [1, 2, 3]
        assert [e.position async for e in store.iter_all(batch_size=2)] == [1, 2, 3, 4, 5, 6]
        leagues = [e.stream async for e in store.iter_all(categories=["league"])]
        assert leagues == ["league-a"]
        assert await store.head_position() == 6

    @pytest.mark.parametrize(
        "name",
        ["game", "Game-1", "-1", "game-", "1game-2", "game 1", "game-1/2", "gäme-1", "g" * 201 + "-1"],
    )
    async def test_stream_names_that_are_not_allowed_are_refused(
        self, store: EventStore, make_event: MakeEvent, name: str
    ) -> None:
        with pytest.raises(InvalidStreamName, match="invalid stream name"):
            await store.append(name, [make_event()], expected_version=NO_STREAM)
        with pytest.raises(InvalidStreamName):
            await store.read_stream(name)
        assert await store.head_position() == 0

    async def test_allowed_stream_names(self, store: EventStore, make_event: MakeEvent) -> None:
        for name in ["game-42", "league-spring_2025", "seat_plan-L1:R2.t-3", "ratings-x"]:
            await store.append(name, [make_event()], expected_version=NO_STREAM)
        assert (await store.read_stream("seat_plan-L1:R2.t-3"))[0].category == "seat_plan"

    # -- schema evolution ----------------------------------------------------------------

    async def test_old_events_are_upcast_on_read(self, open_store: Callable[..., Any]) -> None:
        upcasters = Upcasters()
        upcasters.register("DiceRolled", 1, split_faces)
        upcasters.upcaster("DiceRolled", 2)(add_reroll)
        mapper = Mapper()
        mapper.register(DiceRolled, schema_version=3)
        async with await open_store(mapper=mapper, upcasters=upcasters) as store:
            await store.append(
                "game-1",
                [
                    NewEvent(type="DiceRolled", data={"faces": "arrow,beer"}, schema_version=1),
                    NewEvent(type="DiceRolled", data={"faces": ["gatling"]}, schema_version=2),
                    mapper.to_new_event(DiceRolled(["dynamite"], reroll=2)),
                ],
                expected_version=NO_STREAM,
            )
            events = await store.read_stream("game-1")
            assert [e.schema_version for e in events] == [3, 3, 3]
            assert [mapper.to_domain(e) for e in events] == [
                DiceRolled(["arrow", "beer"], 0),
                DiceRolled(["gatling"], 0),
                DiceRolled(["dynamite"], 2),
            ]
            # History itself is untouched: the first event's hash is that of the bytes and
            # schema version as written, and the chain, recomputed from what is stored, verifies.
            assert events[0].hash == event_hash(
                prev_hash=GENESIS_HASH,
                stream="game-1",
                version=1,
                event_id=events[0].event_id,
                event_type="DiceRolled",
                schema_version=1,
                data=b'{"faces":"arrow,beer"}',
                metadata=b"{}",
            )
            assert (await store.verify_all()).ok
