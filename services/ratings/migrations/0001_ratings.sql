-- The ratings read model (services/ratings/consumer.py, store.py).
--
-- Every row belongs to a *generation*. The live consumer writes the current one; a rebuild
-- fills a new generation beside it while queries keep reading the current one, then flips the
-- statuses in one transaction. So a reader never sees a half-built table, and dropping a
-- generation is one DELETE (the rows cascade).
CREATE TABLE ratings_generations (
    generation    integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    status        text NOT NULL CHECK (status IN ('building', 'current', 'retired')),
    -- the RatingConfig the generation is computed with (msgspec JSON): the live consumer keeps
    -- using it after a rebuild swapped the generation in
    config        json NOT NULL,
    -- the rebuild that made it (a Celery task id): a second delivery finds its work done
    rebuild_id    text UNIQUE,
    games         integer NOT NULL DEFAULT 0 CHECK (games >= 0),
    -- the last event position applied to this generation: an event at or below it is a
    -- repeat and is skipped
    position      bigint NOT NULL DEFAULT 0 CHECK (position >= 0),
    created_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
    activated_at  timestamptz
);
-- at most one generation answers queries
CREATE UNIQUE INDEX ratings_generations_one_current ON ratings_generations ((true))
    WHERE status = 'current';

-- Games seen so far: where they belong and who sits where (SeatsDealt), and once rated their
-- number in the book. `unrated` says why a finished game could not be rated.
CREATE TABLE ratings_games (
    generation   integer NOT NULL REFERENCES ratings_generations ON DELETE CASCADE,
    game_id      text NOT NULL,
    league_id    text,
    season_id    text,
    members      text[],
    game_number  integer,
    unrated      text,
    PRIMARY KEY (generation, game_id)
);
CREATE INDEX ratings_games_league ON ratings_games (generation, league_id, season_id)
    WHERE game_number IS NOT NULL;

-- One row per rated player. `state` is the book's PlayerRecord (msgspec JSON, exact floats):
-- the consumer resumes from it; the other columns are what the queries read.
CREATE TABLE ratings_players (
    generation   integer NOT NULL REFERENCES ratings_generations ON DELETE CASCADE,
    member_id    text NOT NULL,
    rating       double precision NOT NULL,
    games        integer NOT NULL,
    wins         integer NOT NULL,
    provisional  boolean NOT NULL,
    state        json NOT NULL,
    PRIMARY KEY (generation, member_id)
);
CREATE INDEX ratings_players_board ON ratings_players (generation, rating DESC, member_id);

-- The displayed rating per role (overall + shrunk deviation); all four rows of a player
-- change with every game they play, since the overall rating moves.
CREATE TABLE ratings_roles (
    generation   integer NOT NULL,
    member_id    text NOT NULL,
    role         text NOT NULL CHECK (role IN ('sheriff', 'deputy', 'outlaw', 'renegade')),
    rating       double precision NOT NULL,
    games        integer NOT NULL,
    wins         integer NOT NULL,
    provisional  boolean NOT NULL,
    PRIMARY KEY (generation, member_id, role),
    FOREIGN KEY (generation, member_id) REFERENCES ratings_players ON DELETE CASCADE
);
CREATE INDEX ratings_roles_board ON ratings_roles (generation, role, rating DESC, member_id);

-- A rating right after a game: `role` is 'overall' or the role played in that game.
CREATE TABLE ratings_history (
    generation   integer NOT NULL,
    member_id    text NOT NULL,
    role         text NOT NULL CHECK (role IN ('overall', 'sheriff', 'deputy', 'outlaw', 'renegade')),
    game_number  integer NOT NULL,
    game_id      text NOT NULL,
    rating       double precision NOT NULL,
    PRIMARY KEY (generation, member_id, role, game_number),
    FOREIGN KEY (generation, member_id) REFERENCES ratings_players ON DELETE CASCADE
);

-- The fitted side offsets, one row per (table size, faction kind): `value`, `information`
-- and `games` are the book's OffsetCell exactly; `normalised` is centred per table size.
CREATE TABLE ratings_offsets (
    generation   integer NOT NULL REFERENCES ratings_generations ON DELETE CASCADE,
    players      smallint NOT NULL CHECK (players BETWEEN 3 AND 8),
    faction      text NOT NULL,
    value        double precision NOT NULL,
    information  double precision NOT NULL,
    games        integer NOT NULL,
    normalised   double precision NOT NULL,
    PRIMARY KEY (generation, players, faction)
);
