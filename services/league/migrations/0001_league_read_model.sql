-- The league read model: standings, head-to-head, rounds and tables. All of it is a cache of
-- the `league` and `game` streams, written by the `league-standings` subscription in the same
-- transaction as its checkpoint. Disposable: services.league.read_model.reset drops these
-- tables and the checkpoint, re-runs this file (hence IF NOT EXISTS) and the replay refills them.

CREATE TABLE IF NOT EXISTS league_seasons (
    league_id   text NOT NULL,
    season_id   text NOT NULL,
    name        text NOT NULL,
    points      jsonb NOT NULL,          -- the season's PointsScheme
    closed      boolean NOT NULL DEFAULT false,
    PRIMARY KEY (league_id, season_id)
);

CREATE TABLE IF NOT EXISTS league_tournaments (
    league_id     text NOT NULL,
    tournament_id text NOT NULL,
    season_id     text NOT NULL,
    name          text NOT NULL,
    PRIMARY KEY (league_id, tournament_id)
);

-- One row per seated table; game_id once the game server created its game.
CREATE TABLE IF NOT EXISTS league_tables (
    league_id     text NOT NULL,
    tournament_id text NOT NULL,
    round         integer NOT NULL,
    table_no      integer NOT NULL,
    season_id     text NOT NULL,
    members       text[] NOT NULL,
    sheriff       text,
    game_id       text,
    PRIMARY KEY (league_id, tournament_id, round, table_no)
);

CREATE TABLE IF NOT EXISTS league_byes (
    league_id     text NOT NULL,
    tournament_id text NOT NULL,
    round         integer NOT NULL,
    member_id     text NOT NULL,
    season_id     text NOT NULL,
    points        integer NOT NULL,
    PRIMARY KEY (league_id, tournament_id, round, member_id)
);

-- Games that belong to a league (GameCreated.context.league_id set), and who sits where.
CREATE TABLE IF NOT EXISTS league_games (
    game_id       text PRIMARY KEY,
    league_id     text NOT NULL,
    season_id     text,
    tournament_id text,
    round         integer,
    table_no      integer,
    winning_side  text,
    ended_at      bigint                 -- the GameEnded event's global position
);

CREATE TABLE IF NOT EXISTS league_game_seats (
    game_id     text NOT NULL,
    seat        text NOT NULL,           -- p1, p2, …
    member_id   text NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- One row per member per finished league game: the source of tournament standings, Buchholz.
CREATE TABLE IF NOT EXISTS league_game_results (
    game_id       text NOT NULL,
    member_id     text NOT NULL,
    league_id     text NOT NULL,
    season_id     text,
    tournament_id text,
    role          text NOT NULL,
    side          text NOT NULL,
    won           boolean NOT NULL,
    alive         boolean NOT NULL,
    points        integer NOT NULL,
    PRIMARY KEY (game_id, member_id)
);
CREATE INDEX IF NOT EXISTS league_game_results_scope ON league_game_results (league_id, season_id);

-- Season totals per member, updated after every finished game and every bye.
CREATE TABLE IF NOT EXISTS league_standings (
    league_id      text NOT NULL,
    season_id      text NOT NULL,
    member_id      text NOT NULL,
    points         integer NOT NULL DEFAULT 0,
    games          integer NOT NULL DEFAULT 0,
    wins           integer NOT NULL DEFAULT 0,
    renegade_wins  integer NOT NULL DEFAULT 0,
    survivals      integer NOT NULL DEFAULT 0,
    sheriff_games  integer NOT NULL DEFAULT 0,
    byes           integer NOT NULL DEFAULT 0,
    PRIMARY KEY (league_id, season_id, member_id)
);

-- Member vs member within a season: games together and the wins of each in those games.
CREATE TABLE IF NOT EXISTS league_head_to_head (
    league_id      text NOT NULL,
    season_id      text NOT NULL,
    member_id      text NOT NULL,
    opponent_id    text NOT NULL,
    games          integer NOT NULL DEFAULT 0,
    wins           integer NOT NULL DEFAULT 0,
    opponent_wins  integer NOT NULL DEFAULT 0,
    PRIMARY KEY (league_id, season_id, member_id, opponent_id)
);
