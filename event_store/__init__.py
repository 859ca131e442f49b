"""The event store: append-only streams in PostgreSQL (or in memory, for tests), one trustworthy
global order, a hash chain per stream, catch-up subscriptions. See docs/event-store.md.

The public API is re-exported here; import from `event_store`, not its modules.
"""

from event_store.codec import Mapper, canonical_json
from event_store.errors import (
    ConcurrencyError,
    DuplicateEventConflict,
    EventStoreError,
    InvalidEvent,
    InvalidStreamName,
    MigrationError,
    PayloadDecodeError,
    StoreUnavailable,
    UnknownEventType,
)
from event_store.hashing import GENESIS_HASH, event_hash
from event_store.interface import EventStore
from event_store.memory_store import MemoryEventStore
from event_store.migrator import migrate, migrate_component
from event_store.postgres_store import PoolTimeouts, PostgresEventStore, TimedPool, create_pool
from event_store.records import (
    ANY,
    NO_STREAM,
    AppendResult,
    EventMetadata,
    Expect,
    ExpectedVersion,
    NewEvent,
    RecordedEvent,
)
from event_store.streams import category_of, validate_stream_name
from event_store.subscription import Subscription, checkpoint_of, lock_checkpoint, move_checkpoint
from event_store.upcasting import Upcasters
from event_store.verification import (
    ChainBreak,
    ChainProblem,
    TamperDetected,
    VerificationReport,
    verify_all,
    verify_stream,
)
from event_store.wakeups import (
    PollingOnly,
    PostgresNotifications,
    RedisNotifications,
    RedisPositionPublisher,
    redis_channel_for,
)

__all__ = [
    "ANY",
    "GENESIS_HASH",
    "NO_STREAM",
    "AppendResult",
    "ChainBreak",
    "ChainProblem",
    "ConcurrencyError",
    "DuplicateEventConflict",
    "EventMetadata",
    "EventStore",
    "EventStoreError",
    "Expect",
    "ExpectedVersion",
    "InvalidEvent",
    "InvalidStreamName",
    "Mapper",
    "MemoryEventStore",
    "MigrationError",
    "NewEvent",
    "PayloadDecodeError",
    "PollingOnly",
    "PoolTimeouts",
    "PostgresEventStore",
    "PostgresNotifications",
    "RecordedEvent",
    "RedisNotifications",
    "RedisPositionPublisher",
    "StoreUnavailable",
    "Subscription",
    "TamperDetected",
    "TimedPool",
    "UnknownEventType",
    "Upcasters",
    "VerificationReport",
    "canonical_json",
    "category_of",
    "checkpoint_of",
    "create_pool",
    "event_hash",
    "lock_checkpoint",
    "migrate",
    "migrate_component",
    "move_checkpoint",
    "redis_channel_for",
    "validate_stream_name",
    "verify_all",
    "verify_stream",
]
