-- Clubs and club-scoped roles (docs/permissions.md): the read model of the `clubroles-<id>`
-- streams, written in the same transaction as their events, for the lookups of every request.

CREATE TABLE IF NOT EXISTS clubs (
    club_id     text PRIMARY KEY,
    name        text NOT NULL,
    founded_by  text NOT NULL REFERENCES accounts (account_id),
    founded_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS clubs_by_name ON clubs (lower(name), club_id);

CREATE TABLE IF NOT EXISTS club_roles (
    club_id     text NOT NULL REFERENCES clubs (club_id),
    account_id  text NOT NULL REFERENCES accounts (account_id),
    role        text NOT NULL CHECK (role IN ('admin', 'organiser', 'referee', 'scorekeeper', 'player')),
    game_id     text NOT NULL DEFAULT '',        -- a scorekeeper's table game; '' = not scoped
    granted_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, account_id, role, game_id)
);
CREATE INDEX IF NOT EXISTS club_roles_by_account ON club_roles (account_id);

CREATE TABLE IF NOT EXISTS club_invites (
    invite_id   text PRIMARY KEY REFERENCES account_invites (invite_id),
    club_id     text NOT NULL REFERENCES clubs (club_id),
    invited_by  text NOT NULL REFERENCES accounts (account_id),
    settled_at  timestamptz                      -- the player role granted to the invitee
);
CREATE INDEX IF NOT EXISTS club_invites_unsettled ON club_invites (invite_id) WHERE settled_at IS NULL;
