-- The directory read model: what the lists and searches read (docs/directory.md). A cache of the
-- `game`, `league` and `club` streams written by the `directory` subscription in the same
-- transaction as its checkpoint. Disposable: services.directory.projection.reset drops these
-- tables and the checkpoint, re-runs this file (hence IF NOT EXISTS) and the replay refills them.
--
-- No hidden information is kept: no role, character or seed. A game's winning side and who won
-- are written only when its end arrives, when they are public.

CREATE TABLE IF NOT EXISTS directory_games (
    game_id       text PRIMARY KEY,
    mode          text NOT NULL,
    status        text NOT NULL CHECK (status IN ('lobby', 'ongoing', 'finished', 'abandoned')),
    game_type     text NOT NULL,
    modules       text[] NOT NULL,
    player_count  integer NOT NULL,
    created_at    timestamptz NOT NULL,
    started_at    timestamptz,
    ended_at      timestamptz,
    league_id     text,
    season_id     text,
    tournament_id text,
    round         bigint,           -- as the game claims it: any integer the game's event holds
    table_no      bigint,
    winning_side  text,
    voided        boolean NOT NULL DEFAULT false
);
CREATE INDEX IF NOT EXISTS directory_games_newest ON directory_games (created_at DESC, game_id DESC);
CREATE INDEX IF NOT EXISTS directory_games_by_league ON directory_games (league_id, created_at DESC);

CREATE TABLE IF NOT EXISTS directory_game_seats (
    game_id   text NOT NULL REFERENCES directory_games (game_id) ON DELETE CASCADE,
    member_id text NOT NULL,
    joined    integer NOT NULL,     -- join order: a lobby lists its players before seats are dealt
    seat      text,                 -- p1…, once dealt
    name      text NOT NULL,        -- the name the game was joined with (the last fallback)
    won       boolean,              -- once the game ended
    PRIMARY KEY (game_id, member_id)
);
CREATE INDEX IF NOT EXISTS directory_game_seats_by_member ON directory_game_seats (member_id);

CREATE TABLE IF NOT EXISTS directory_clubs (
    club_id   text PRIMARY KEY,
    name      text NOT NULL         -- the league club's name (clubs.name wins where the club has one)
);

CREATE TABLE IF NOT EXISTS directory_club_members (
    club_id   text NOT NULL,
    member_id text NOT NULL,
    name      text NOT NULL,        -- the league club's registered name (a fallback display name)
    PRIMARY KEY (club_id, member_id)
);
CREATE INDEX IF NOT EXISTS directory_club_members_by_member ON directory_club_members (member_id);

CREATE TABLE IF NOT EXISTS directory_leagues (
    league_id  text PRIMARY KEY,
    club_id    text NOT NULL,
    name       text NOT NULL,
    founded_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS directory_leagues_by_club ON directory_leagues (club_id, lower(name), league_id);

CREATE TABLE IF NOT EXISTS directory_seasons (
    league_id  text NOT NULL,
    season_id  text NOT NULL,
    name       text NOT NULL,
    opened_at  timestamptz NOT NULL,
    closed     boolean NOT NULL DEFAULT false,
    entrants   integer NOT NULL DEFAULT 0,
    PRIMARY KEY (league_id, season_id)
);

CREATE TABLE IF NOT EXISTS directory_tournaments (
    league_id     text NOT NULL,
    tournament_id text NOT NULL,
    season_id     text NOT NULL,
    name          text NOT NULL,
    opened_at     timestamptz NOT NULL,
    PRIMARY KEY (league_id, tournament_id)
);

CREATE TABLE IF NOT EXISTS directory_rounds (
    league_id     text NOT NULL,
    tournament_id text NOT NULL,
    round         integer NOT NULL,
    season_id     text NOT NULL,
    seated_at     timestamptz NOT NULL,
    byes          text[] NOT NULL,
    closed        boolean NOT NULL DEFAULT false,
    PRIMARY KEY (league_id, tournament_id, round)
);

CREATE TABLE IF NOT EXISTS directory_tables (
    league_id     text NOT NULL,
    tournament_id text NOT NULL,
    round         integer NOT NULL,
    table_no      integer NOT NULL,
    members       text[] NOT NULL,  -- in the seating's order
    sheriff       text,             -- the rotation's Sheriff (public); none at three players
    game_id       text,             -- once scheduled
    mode          text,             -- online or table, once scheduled (unknown for old events)
    PRIMARY KEY (league_id, tournament_id, round, table_no)
);
CREATE INDEX IF NOT EXISTS directory_tables_by_game ON directory_tables (game_id) WHERE game_id IS NOT NULL;

CREATE TABLE IF NOT EXISTS directory_forfeits (
    league_id     text NOT NULL,
    tournament_id text NOT NULL,
    round         integer NOT NULL,
    table_no      integer NOT NULL,
    member_id     text NOT NULL,
    kind          text NOT NULL,    -- forfeit or no-show
    reason        text NOT NULL,
    PRIMARY KEY (league_id, tournament_id, round, member_id)
);
