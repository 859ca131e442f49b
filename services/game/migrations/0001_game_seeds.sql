-- The dice seeds of online games. Secret until the game ends, so they live here and never in
-- the event stream (which feeds, exports and subscribers read). SeedRevealed publishes a seed
-- once its game is over.
CREATE TABLE IF NOT EXISTS game_seeds (
    game_id     text PRIMARY KEY,
    seed        bytea NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
