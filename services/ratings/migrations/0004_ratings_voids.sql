-- Voided games (a league's GameVoided, docs/ratings.md "Voided games"). A generation never
-- rates a game in its `ratings_voided`: a new generation starts with every void stored so far,
-- and the consumer adds each void it meets. A void of a game the generation has rated already
-- asks for a rebuild (`ratings_rebuild_requests`), which recomputes without it.
CREATE TABLE ratings_voided (
    generation  integer NOT NULL REFERENCES ratings_generations ON DELETE CASCADE,
    league_id   text NOT NULL,
    game_id     text NOT NULL,
    PRIMARY KEY (generation, game_id, league_id)
);

-- Rebuilds asked for by a void of a rated game. The request id is the rebuild id, so running
-- a request twice (two consumers, a restart half-way) finds the first run's generation.
CREATE TABLE ratings_rebuild_requests (
    request_id    text PRIMARY KEY,
    reason        text NOT NULL,
    requested_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    done_at       timestamptz
);
CREATE INDEX ratings_rebuild_requests_pending ON ratings_rebuild_requests (requested_at)
    WHERE done_at IS NULL;
