-- Ratings by pool (issue 20, docs/ratings.md "What is rated: pools"): a rating moves only for
-- games whose result nobody can fabricate alone. `pool` is 'global' (online games on this
-- server, every seat taken by its own account) or 'club:<club_id>' (that club's league games,
-- entered under the league's schedule). Every rating row, history point and side offset
-- belongs to one pool; a player has one rating per pool and game type.
--
-- The rows written before were rated from every finished game, imported records and friendly
-- table games included, and the facts a pool is decided from (who took each seat, the league's
-- club and schedule, whether the game was imported) were not kept: they are all moved to the
-- global pool here and a rebuild is requested, which recomputes every pool from the events and
-- swaps in (the consumer runs it after its next batch, or its companion within seconds).
ALTER TABLE ratings_roles DROP CONSTRAINT IF EXISTS ratings_roles_generation_game_type_member_id_fkey;
ALTER TABLE ratings_history DROP CONSTRAINT IF EXISTS ratings_history_generation_game_type_member_id_fkey;

ALTER TABLE ratings_players ADD COLUMN pool text NOT NULL DEFAULT 'global';
ALTER TABLE ratings_roles ADD COLUMN pool text NOT NULL DEFAULT 'global';
ALTER TABLE ratings_history ADD COLUMN pool text NOT NULL DEFAULT 'global';
ALTER TABLE ratings_offsets ADD COLUMN pool text NOT NULL DEFAULT 'global';

ALTER TABLE ratings_players DROP CONSTRAINT ratings_players_pkey;
ALTER TABLE ratings_players ADD PRIMARY KEY (generation, pool, game_type, member_id);
ALTER TABLE ratings_roles DROP CONSTRAINT ratings_roles_pkey;
ALTER TABLE ratings_roles ADD PRIMARY KEY (generation, pool, game_type, member_id, role);
ALTER TABLE ratings_history DROP CONSTRAINT ratings_history_pkey;
ALTER TABLE ratings_history ADD PRIMARY KEY (generation, pool, game_type, member_id, role, game_number);
ALTER TABLE ratings_offsets DROP CONSTRAINT ratings_offsets_pkey;
ALTER TABLE ratings_offsets ADD PRIMARY KEY (generation, pool, ruleset, players, faction);

ALTER TABLE ratings_roles ADD FOREIGN KEY (generation, pool, game_type, member_id)
    REFERENCES ratings_players (generation, pool, game_type, member_id) ON DELETE CASCADE;
ALTER TABLE ratings_history ADD FOREIGN KEY (generation, pool, game_type, member_id)
    REFERENCES ratings_players (generation, pool, game_type, member_id) ON DELETE CASCADE;

-- from now on every writer names the pool
ALTER TABLE ratings_players ALTER COLUMN pool DROP DEFAULT;
ALTER TABLE ratings_roles ALTER COLUMN pool DROP DEFAULT;
ALTER TABLE ratings_history ALTER COLUMN pool DROP DEFAULT;
ALTER TABLE ratings_offsets ALTER COLUMN pool DROP DEFAULT;

DROP INDEX IF EXISTS ratings_players_board;
CREATE INDEX ratings_players_board ON ratings_players (generation, pool, game_type, rating DESC, member_id);
DROP INDEX IF EXISTS ratings_roles_board;
CREATE INDEX ratings_roles_board ON ratings_roles (generation, pool, game_type, role, rating DESC, member_id);

-- What a game's pools are decided from, as its events recorded it: how it was played (`mode`,
-- GameCreated), who created it (`created_by`) and under which command id (`created_command`),
-- the members who took their seat themselves (`joined_by_self`: a PlayerJoined appended by that
-- member's own account), whether it was imported from a record (`imported`: its inputs were
-- entered under `<created_command>/input/<n>`), and the pools it was rated in (`pools`).
ALTER TABLE ratings_games ADD COLUMN IF NOT EXISTS mode text;
ALTER TABLE ratings_games ADD COLUMN IF NOT EXISTS created_by text;
ALTER TABLE ratings_games ADD COLUMN IF NOT EXISTS created_command text;
ALTER TABLE ratings_games ADD COLUMN IF NOT EXISTS joined_by_self text[] NOT NULL DEFAULT '{}';
ALTER TABLE ratings_games ADD COLUMN IF NOT EXISTS imported boolean NOT NULL DEFAULT false;
ALTER TABLE ratings_games ADD COLUMN IF NOT EXISTS pools text[];

-- The league facts a club pool is decided from: which club founded each league
-- (LeagueFounded) and which games each league scheduled, how, and with whom (GameScheduled).
CREATE TABLE ratings_leagues (
    generation  integer NOT NULL REFERENCES ratings_generations ON DELETE CASCADE,
    league_id   text NOT NULL,
    club_id     text NOT NULL,
    PRIMARY KEY (generation, league_id)
);

CREATE TABLE ratings_scheduled (
    generation    integer NOT NULL REFERENCES ratings_generations ON DELETE CASCADE,
    league_id     text NOT NULL,
    game_id       text NOT NULL,
    mode          text,
    scorekeeper   text,
    scheduled_by  text,
    PRIMARY KEY (generation, league_id, game_id)
);

INSERT INTO ratings_rebuild_requests (request_id, reason)
SELECT 'pools:0007', 'ratings by pool (migration 0007): every pool recomputed from the events'
 WHERE EXISTS (SELECT 1 FROM ratings_generations WHERE status = 'current')
ON CONFLICT DO NOTHING;
