-- Tokens may expire: NULL is "never" (the tokens issued so far). A token past its expires_at is
-- refused like a revoked one. The game index finds a game's player tokens to revoke them.
ALTER TABLE access_tokens ADD COLUMN IF NOT EXISTS expires_at timestamptz;
CREATE INDEX IF NOT EXISTS access_tokens_game ON access_tokens (game_id) WHERE game_id IS NOT NULL;
