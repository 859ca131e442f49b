-- The event store: streams, events, checkpoints, and the one function that appends.

-- One row per stream: its head (version and the hash of its last event). Appends lock this
-- row, so writers to one stream queue here, and the optimistic check is one UPDATE.
CREATE TABLE streams (
    name        text PRIMARY KEY,
    category    text NOT NULL,
    version     bigint NOT NULL CHECK (version > 0),
    last_hash   bytea NOT NULL CHECK (length(last_hash) = 32),
    created_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    updated_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX streams_category ON streams (category);

-- Every event ever appended. `position` is the global order (gap-free, see
-- event_store_append), `version` the order inside the stream (1, 2, ...).
-- `data` and `metadata` are `json`, not `jsonb`: `json` keeps the input text byte for byte,
-- so the canonical bytes that were hashed are exactly what is stored (an audit recomputes a
-- hash from the row without re-encoding), and SQL can still read them (data->>'player').
CREATE TABLE events (
    position        bigint PRIMARY KEY,
    stream_name     text NOT NULL,
    category        text NOT NULL,
    version         bigint NOT NULL CHECK (version > 0),
    event_id        uuid NOT NULL,
    type            text NOT NULL,
    schema_version  integer NOT NULL CHECK (schema_version > 0),
    data            json NOT NULL,
    metadata        json NOT NULL,
    recorded_at     timestamptz NOT NULL,
    prev_hash       bytea NOT NULL CHECK (length(prev_hash) = 32),
    hash            bytea NOT NULL CHECK (length(hash) = 32),
    CONSTRAINT events_event_id_unique UNIQUE (event_id),
    CONSTRAINT events_stream_version_unique UNIQUE (stream_name, version)
);
CREATE INDEX events_category_position ON events (category, position);

-- Events are facts: refuse edits and deletes outright. The hash chain detects the edits of
-- someone who disables this trigger (an owner or superuser can).
CREATE FUNCTION event_store_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % refused', TG_OP
        USING ERRCODE = 'BE004';
END $$;
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION event_store_refuse_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION event_store_refuse_change();

-- How far each subscriber got. A projection commits its rows and this row together.
CREATE TABLE checkpoints (
    name        text PRIMARY KEY,
    position    bigint NOT NULL CHECK (position >= 0),
    updated_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- If every event id of the batch is stored already, exactly as given (same stream, same
-- order, same type, schema version, data and metadata), return the stored positions: the
-- batch is a retry of one that committed. If none is stored, return nothing. Anything in
-- between is an error (BE002): ids reused for different events.
CREATE FUNCTION event_store_stored_batch(
    p_stream text, p_event_ids uuid[], p_types text[], p_schema_versions integer[],
    p_data json[], p_metadata json[]
) RETURNS TABLE (o_position bigint, o_version bigint, o_duplicate boolean)
LANGUAGE plpgsql AS $$
DECLARE
    stored_count integer;
    faithful boolean;
BEGIN
    SELECT count(*) INTO stored_count FROM events e WHERE e.event_id = ANY (p_event_ids);
    IF stored_count = 0 THEN
        RETURN;
    END IF;
    SELECT bool_and(
               e.position IS NOT NULL
               AND e.stream_name = p_stream
               AND e.type = b.type
               AND e.schema_version = b.schema_version
               AND e.data::text = b.data::text
               AND e.metadata::text = b.metadata::text)
           AND count(DISTINCT e.version - b.ord) = 1
      INTO faithful
      FROM unnest(p_event_ids, p_types, p_schema_versions, p_data, p_metadata)
               WITH ORDINALITY AS b(event_id, type, schema_version, data, metadata, ord)
      LEFT JOIN events e ON e.event_id = b.event_id;
    IF NOT faithful THEN
        RAISE EXCEPTION '%: % of % event ids are stored already, but not as this batch',
            p_stream, stored_count, cardinality(p_event_ids)
            USING ERRCODE = 'BE002';
    END IF;
    RETURN QUERY
        SELECT e.position, e.version, true FROM events e
         WHERE e.event_id = ANY (p_event_ids) ORDER BY e.version;
END $$;

-- Append a batch to one stream in one statement (one round trip, one transaction).
-- The caller computed the hashes against (p_base_version, p_prev_hash): the head it believes
-- the stream has. Errors, all raised before anything is written:
--   BE001  the stream is at another version (DETAIL: the actual version)
--   BE002  some event ids are stored already as other events
--   BE003  the version matches but the head hash does not: the caller's cached head is stale
--   23505 on events_event_id_unique: an event id is stored already (see stored_batch)
CREATE FUNCTION event_store_append(
    p_stream text, p_category text, p_base_version bigint, p_prev_hash bytea,
    p_event_ids uuid[], p_types text[], p_schema_versions integer[],
    p_data json[], p_metadata json[], p_hashes bytea[]
) RETURNS TABLE (o_position bigint, o_version bigint, o_duplicate boolean)
LANGUAGE plpgsql AS $$
DECLARE
    batch_size constant integer := cardinality(p_event_ids);
    actual_version bigint;
    last_position bigint;
    recorded timestamptz;
BEGIN
    -- Optimistic concurrency: move the head only if it is where the caller expects. A
    -- concurrent writer holding the row makes this wait, then re-check the new row.
    IF p_base_version = 0 THEN
        INSERT INTO streams (name, category, version, last_hash)
        VALUES (p_stream, p_category, batch_size, p_hashes[batch_size])
        ON CONFLICT (name) DO NOTHING;
    ELSE
        UPDATE streams
           SET version = p_base_version + batch_size,
               last_hash = p_hashes[batch_size],
               updated_at = clock_timestamp()
         WHERE name = p_stream AND version = p_base_version AND last_hash = p_prev_hash;
    END IF;
    IF NOT FOUND THEN
        -- Idempotent retries: after an ambiguous failure the stream has moved on, and the
        -- right answer is the original positions, not a version conflict. (A retry whose
        -- version check passes - ANY - fails on events_event_id_unique below instead, and
        -- the caller asks event_store_stored_batch itself; so the common path pays nothing.)
        RETURN QUERY SELECT * FROM event_store_stored_batch(
            p_stream, p_event_ids, p_types, p_schema_versions, p_data, p_metadata);
        IF FOUND THEN
            RETURN;
        END IF;
        SELECT s.version INTO actual_version FROM streams s WHERE s.name = p_stream;
        actual_version := coalesce(actual_version, 0);
        IF actual_version = p_base_version THEN
            RAISE EXCEPTION '%: head hash at version % is not the one expected', p_stream,
                actual_version USING ERRCODE = 'BE003';
        END IF;
        RAISE EXCEPTION '%: expected version %, the stream is at %', p_stream,
            p_base_version, actual_version
            USING ERRCODE = 'BE001', DETAIL = actual_version::text;
    END IF;

    -- Global order subscribers can trust. Positions are handed out under a transaction-scoped
    -- advisory lock that is held until this transaction has committed (PostgreSQL releases
    -- locks only after the commit is visible to new snapshots). So transactions commit in
    -- position order: a reader that sees position N sees every position below N, and a
    -- reader polling `position > checkpoint` can never skip an event that commits late -
    -- the failure mode of a bare bigserial, where a lower number may commit after a higher
    -- one has been read. Under the lock max(position)+1 is also gap-free (a rolled-back
    -- append gives its numbers back). The lock is taken last, after the stream row, so it is
    -- held only for the insert and the commit, and every appender takes the locks in the
    -- same order (no deadlocks). Cost: appends commit one after another.
    PERFORM pg_advisory_xact_lock(1650552423);  -- 0x62616e67, 'bang'
    SELECT coalesce(max(e.position), 0) INTO last_position FROM events e;
    recorded := clock_timestamp();
    RETURN QUERY
        INSERT INTO events AS e (position, stream_name, category, version, event_id, type,
                                 schema_version, data, metadata, recorded_at, prev_hash, hash)
        SELECT last_position + b.ord, p_stream, p_category, p_base_version + b.ord, b.event_id,
               b.type, b.schema_version, b.data, b.metadata, recorded,
               CASE WHEN b.ord = 1 THEN p_prev_hash ELSE p_hashes[b.ord - 1] END, b.hash
          FROM unnest(p_event_ids, p_types, p_schema_versions, p_data, p_metadata, p_hashes)
                   WITH ORDINALITY AS b(event_id, type, schema_version, data, metadata, hash, ord)
        RETURNING e.position, e.version, false;

    -- A wake-up for LISTENers, delivered only if and when this transaction commits.
    PERFORM pg_notify('event_store_appended', (last_position + batch_size)::text);
END $$;
