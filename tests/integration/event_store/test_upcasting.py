"""Schema evolution: old payloads are upcast on read; the stored bytes (and hashes) stay."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from event_store import NO_STREAM, Mapper, NewEvent, PostgresEventStore, Upcasters


class DiceRolled(msgspec.Struct, frozen=True):
    faces: list[str]
    reroll: int


def split_faces(data: dict[str, Any]) -> dict[str, Any]:  # v1 "a,b" → v2 ["a", "b"]
    return {**data, "faces": data["faces"].split(",")}


def add_reroll(data: dict[str, Any]) -> dict[str, Any]:  # v2 → v3 counts rerolls
    return {**data, "reroll": 0}


async def test_old_events_are_upcast_on_read(database_dsn: str) -> None:
    upcasters = Upcasters()
    upcasters.register("DiceRolled", 1, split_faces)
    upcasters.upcaster("DiceRolled", 2)(add_reroll)
    mapper = Mapper()
    mapper.register(DiceRolled, schema_version=3)
    async with await PostgresEventStore.open(
        database_dsn, mapper=mapper, upcasters=upcasters
    ) as store:
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
        # History itself is untouched: stored as written, and the chain still verifies.
        stored = await store.pool.fetchval("SELECT data FROM events WHERE position = 1")
        assert stored == '{"faces":"arrow,beer"}'
        assert (await store.verify_all()).ok


def test_one_step_cannot_be_registered_twice() -> None:
    upcasters = Upcasters()
    upcasters.register("DiceRolled", 1, split_faces)
    with pytest.raises(ValueError, match="registered already"):
        upcasters.register("DiceRolled", 1, add_reroll)
