-- Members registered by name (issue 11): which command made which unclaimed account, so a
-- retried registration (the same command id) answers with the same member instead of a twin.

CREATE TABLE club_registrations (
    club_id       text NOT NULL REFERENCES clubs (club_id),
    command_id    text NOT NULL,
    account_id    text NOT NULL REFERENCES accounts (account_id),
    invite_id     text NOT NULL REFERENCES account_invites (invite_id),
    display_name  text NOT NULL,                 -- as asked (a retry must ask the same)
    login         text,
    registered_by text NOT NULL REFERENCES accounts (account_id),
    registered_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (club_id, command_id)
);
