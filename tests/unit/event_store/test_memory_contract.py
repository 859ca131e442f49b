"""The store contract (tests/event_store_contract.py) on the in-memory store, and what only the
in-memory store can show: its own stored rows edited, and the chain walk naming it."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from event_store import ChainBreak, EventStore, MemoryEventStore, TamperDetected
from tests.event_store_contract import EventStoreContract, fill_game_42


class TestMemoryEventStore(EventStoreContract):
    @pytest.fixture
    def store(self) -> MemoryEventStore:
        return MemoryEventStore()

    @pytest.fixture
    def open_store(self) -> Callable[..., Any]:
        async def open_(**options: Any) -> MemoryEventStore:
            return MemoryEventStore(**options)

        return open_

    @pytest.fixture
    def twin(self) -> Callable[[EventStore], EventStore]:
        # One process holds the only copy of the data, and nothing is cached in front of it.
        return lambda store: store


@pytest.fixture
async def game_42() -> MemoryEventStore:
    store = MemoryEventStore()
    await fill_game_42(store)
    return store


def _edit(store: MemoryEventStore, stream: str, version: int, **changes: object) -> None:
    """Rewrite one stored event in place, as a forger with access to the process would."""
    held = store._streams[stream]
    edited = dataclasses.replace(held[version - 1], **changes)  # type: ignore[arg-type]
    held[version - 1] = edited
    store._events[edited.position - 1] = edited


async def test_an_edited_event_is_named(game_42: MemoryEventStore) -> None:
    _edit(game_42, "game-42", 7, data='{"roll":6}')
    report = await game_42.verify_stream("game-42")
    assert str(report.first_problem) == "game-42 version 7: stored hash does not match its content (edited?)"
    assert (await game_42.verify_stream("game-43")).ok
    with pytest.raises(TamperDetected, match="game-42 version 7"):
        (await game_42.verify_all()).raise_if_broken()


async def test_a_deleted_event_and_a_relinked_chain_are_named(game_42: MemoryEventStore) -> None:
    _edit(game_42, "game-43", 1, prev_hash=b"\x01" * 32)
    fifth = game_42._streams["game-42"].pop(4)
    game_42._events.remove(fifth)
    found = [(p.stream, p.kind, p.version) for p in (await game_42.verify_all()).problems]
    assert found == [
        ("game-42", ChainBreak.MISSING, 5),
        ("game-43", ChainBreak.RELINKED, 1),
        (None, ChainBreak.MISSING, None),  # global position 5
    ]


async def test_a_read_event_cannot_change_history(game_42: MemoryEventStore) -> None:
    first = (await game_42.read_stream("game-42"))[0]
    first.data["roll"] = 99
    assert (await game_42.read_stream("game-42"))[0].data == {"roll": 1}
    assert (await game_42.verify_all()).ok
