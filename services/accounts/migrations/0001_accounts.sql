-- Accounts (docs/accounts.md). The facts are the `account-<id>` and `invite-<id>` streams; these
-- tables hold what a fact must never carry: the argon2id password hash and the sha256 of every
-- bearer secret (sessions, invites). They are written in the same transaction as the events.

CREATE TABLE IF NOT EXISTS accounts (
    account_id          text PRIMARY KEY,
    login               text NOT NULL,
    login_key           text NOT NULL UNIQUE,   -- the login name case-folded: one per person
    display_name        text NOT NULL,
    password_hash       text NOT NULL,          -- argon2id, PHC string; never leaves this table
    created_at          timestamptz NOT NULL DEFAULT now(),
    password_changed_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS account_sessions (
    token_hash  bytea PRIMARY KEY,              -- sha256 of the bearer token, never the token
    account_id  text NOT NULL REFERENCES accounts (account_id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    revoked_at  timestamptz
);
CREATE INDEX IF NOT EXISTS account_sessions_by_account ON account_sessions (account_id)
    WHERE revoked_at IS NULL;

CREATE TABLE IF NOT EXISTS account_invites (
    invite_id    text PRIMARY KEY,
    token_hash   bytea NOT NULL UNIQUE,
    display_name text NOT NULL,
    login        text,                          -- preset by the inviter, or chosen on accepting
    issued_by    text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    accepted_at  timestamptz,
    account_id   text REFERENCES accounts (account_id)
);
