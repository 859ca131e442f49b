-- Scheduled game ids (docs/league.md, "Integrity"). Not a read model: a row is written when an
-- organiser schedules a game, before its `GameScheduled` event, so that from then on nobody
-- else can create a game with that id, and the game server can check a league game against
-- its schedule without folding the league's stream. `reset` of the read model keeps it.

CREATE TABLE IF NOT EXISTS league_game_reservations (
    game_id       text PRIMARY KEY,
    league_id     text NOT NULL,
    club_id       text NOT NULL,
    season_id     text NOT NULL,
    tournament_id text NOT NULL,
    round         integer NOT NULL,
    table_no      integer NOT NULL,
    mode          text NOT NULL CHECK (mode IN ('online', 'table')),
    members       text[] NOT NULL,     -- the seated table's members, in the seating's order
    sheriff       text,                -- the rotation's Sheriff (None at a three-player table)
    scorekeeper   text,                -- a table game's scorekeeper (account id)
    scheduled_by  text NOT NULL,
    reserved_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (league_id, tournament_id, round, table_no)
);
