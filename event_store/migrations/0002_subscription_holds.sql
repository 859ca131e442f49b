-- Subscriptions held at an event they could not apply (see event_store/subscription.py).
--
-- A subscriber whose handler keeps failing on one event stops there instead of crashing its
-- process over and over: it records a row here with status 'held' and applies nothing more
-- until an operator resolves the row, either 'retried' (try the event again, after a fix) or
-- 'skipped' (the checkpoint moved past that one event, in the transaction that wrote this
-- row's resolution). Rows are kept after resolution: they are the record of what was skipped
-- and why. The error is its class and a message with literal values removed, never payload.
CREATE TABLE subscription_holds (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name            text NOT NULL,            -- the subscriber (its checkpoint's name)
    position        bigint NOT NULL CHECK (position > 0),
    stream_name     text NOT NULL,
    stream_version  bigint NOT NULL,
    event_type      text NOT NULL,
    error_class     text NOT NULL,
    error_message   text NOT NULL,
    attempts        integer NOT NULL CHECK (attempts > 0),
    first_failed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    last_failed_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    status          text NOT NULL DEFAULT 'held' CHECK (status IN ('held', 'retried', 'skipped')),
    resolved_at     timestamptz,
    resolved_by     text,
    reason          text,
    CHECK ((status = 'held') = (resolved_at IS NULL))
);

-- At most one open hold per subscriber: it is held at one position at a time.
CREATE UNIQUE INDEX subscription_holds_open ON subscription_holds (name) WHERE status = 'held';
CREATE INDEX subscription_holds_by_name ON subscription_holds (name, id);
