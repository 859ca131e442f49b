-- The read model of the `game-deadlines` projection (services/game/deadlines.py): one row per
-- ongoing game that has a decision time limit. Disposable like every read model: `rebuild
-- game-deadlines` empties it and replays the game streams from position 0.
CREATE TABLE IF NOT EXISTS game_deadlines (
    game_id            text PRIMARY KEY,
    timeout_seconds    integer NOT NULL CHECK (timeout_seconds > 0),
    version            bigint NOT NULL,      -- the stream version of the latest event folded
    latest_event_at    timestamptz NOT NULL, -- its recorded_at: the clock restarts on every event
    awaiting_player    text,                 -- NULL while the engine awaits dice (never timed out)
    awaiting_decision  text,
    -- latest_event_at + timeout_seconds while a decision is awaited, else NULL. Stored rather
    -- than computed in the query because timestamptz + interval is not immutable (so neither a
    -- generated column nor an expression index), and the sweeper asks "what is due" twice a second.
    due_at             timestamptz,
    CHECK ((awaiting_decision IS NULL) = (due_at IS NULL))
);
CREATE INDEX IF NOT EXISTS game_deadlines_due ON game_deadlines (due_at) WHERE due_at IS NOT NULL;
