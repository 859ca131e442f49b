"""Reading a stream, the global stream and categories: ordered, batched, filtered."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from event_store import NO_STREAM, InvalidStreamName, NewEvent, PostgresEventStore


@pytest.fixture
async def filled(store: PostgresEventStore, make_event: Callable[..., NewEvent]) -> None:
    await store.append("game-1", [make_event(n=1), make_event(n=2)], expected_version=NO_STREAM)
    await store.append("league-a", [make_event("LeagueOpened", n=3)], expected_version=NO_STREAM)
    await store.append("game-2", [make_event(n=4)], expected_version=NO_STREAM)
    await store.append("game-1", [make_event(n=5), make_event(n=6)], expected_version=2)


async def test_read_a_stream_from_a_version(store: PostgresEventStore, filled: None) -> None:
    assert [e.data["n"] for e in await store.read_stream("game-1")] == [1, 2, 5, 6]
    assert [e.version for e in await store.read_stream("game-1", from_version=3)] == [3, 4]
    assert [e.version for e in await store.read_stream("game-1", 2, limit=2)] == [2, 3]
    assert await store.read_stream("game-404") == []
    assert [e.version async for e in store.iter_stream("game-1", batch_size=3)] == [1, 2, 3, 4]


async def test_read_the_global_stream_and_categories(
    store: PostgresEventStore, filled: None
) -> None:
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
    store: PostgresEventStore, make_event: Callable[..., NewEvent], name: str
) -> None:
    with pytest.raises(InvalidStreamName, match="invalid stream name"):
        await store.append(name, [make_event()], expected_version=NO_STREAM)
    with pytest.raises(InvalidStreamName):
        await store.read_stream(name)
    assert await store.head_position() == 0


async def test_allowed_stream_names(
    store: PostgresEventStore, make_event: Callable[..., NewEvent]
) -> None:
    for name in ["game-42", "league-spring_2025", "seat_plan-L1:R2.t-3", "ratings-x"]:
        await store.append(name, [make_event()], expected_version=NO_STREAM)
    assert (await store.read_stream("seat_plan-L1:R2.t-3"))[0].category == "seat_plan"
