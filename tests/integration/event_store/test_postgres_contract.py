"""The store contract (tests/event_store_contract.py) on PostgreSQL: each test in its own
freshly created database on the embedded server."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from event_store import EventStore, PostgresEventStore
from tests.event_store_contract import EventStoreContract


class TestPostgresEventStore(EventStoreContract):
    # `store` is this folder's conftest fixture: a migrated store in this test's database.

    @pytest.fixture
    def open_store(self, database_dsn: str) -> Callable[..., Any]:
        async def open_(**options: Any) -> PostgresEventStore:
            return await PostgresEventStore.open(database_dsn, **options)

        return open_

    @pytest.fixture
    def twin(self) -> Callable[[EventStore], EventStore]:
        def another_process(store: EventStore) -> EventStore:
            assert isinstance(store, PostgresEventStore)
            return PostgresEventStore(store.pool)  # its own, empty head cache

        return another_process
