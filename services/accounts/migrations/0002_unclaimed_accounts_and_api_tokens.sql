-- Issue 11: a member registered by name (an *unclaimed* account: a display name, no login name
-- and no password yet, so nobody can log in as it), the invite that claims it, and API tokens
-- for scripts.

ALTER TABLE accounts ALTER COLUMN login DROP NOT NULL;
ALTER TABLE accounts ALTER COLUMN login_key DROP NOT NULL;   -- UNIQUE still: NULLs never clash
ALTER TABLE accounts ALTER COLUMN password_hash DROP NOT NULL;
ALTER TABLE accounts ADD CONSTRAINT accounts_claimed_whole CHECK (
    (login IS NULL) = (login_key IS NULL) AND (login IS NULL) = (password_hash IS NULL)
);

-- accepting an invite that claims an account sets the login name and password on that very
-- account (its id, the member id, never changes)
ALTER TABLE account_invites ADD COLUMN claims text REFERENCES accounts (account_id);

CREATE TABLE api_tokens (
    token_id    text PRIMARY KEY,
    token_hash  bytea NOT NULL UNIQUE,          -- sha256 of the `blt_…` secret, never the secret
    account_id  text NOT NULL REFERENCES accounts (account_id),
    label       text NOT NULL,
    grants      jsonb NOT NULL,                 -- [{club_id, role, game_id}], a subset of the account's
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    revoked_at  timestamptz
);
CREATE INDEX api_tokens_by_account ON api_tokens (account_id, created_at) WHERE revoked_at IS NULL;
