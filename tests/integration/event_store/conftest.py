from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest

from event_store import NewEvent, PostgresEventStore


@pytest.fixture
async def store(database_dsn: str) -> AsyncIterator[PostgresEventStore]:
    """A migrated event store in this test's own database."""
    async with await PostgresEventStore.open(database_dsn, min_size=1, max_size=12) as opened:
        yield opened


@pytest.fixture
def make_event() -> Callable[..., NewEvent]:
    def make(event_type: str = "DiceRolled", **data: object) -> NewEvent:
        return NewEvent(type=event_type, data=dict(data) or {"faces": ["arrow", "beer"]})

    return make
