-- Bearer tokens of players and organisers. Only sha256(token) is kept: a leaked table (or a
-- backup) cannot be replayed against the API, and a lost token is replaced, never recovered.
CREATE TABLE IF NOT EXISTS access_tokens (
    token_hash  bytea PRIMARY KEY,
    kind        text NOT NULL CHECK (kind IN ('player', 'organiser')),
    subject     text NOT NULL,
    game_id     text,
    label       text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz,
    -- a player token speaks for one member in one game; an organiser token for no game in particular
    CHECK ((kind = 'player') = (game_id IS NOT NULL))
);
CREATE INDEX IF NOT EXISTS access_tokens_subject ON access_tokens (kind, subject);
