-- Ratings per game type (issue 14): a player's dice rating and card-game rating are two
-- ratings, and a game moves only those of its own type (side offsets were kept apart already,
-- per ruleset: `dice …` and `cards`). Rows written before are all dice ratings.
ALTER TABLE ratings_roles DROP CONSTRAINT IF EXISTS ratings_roles_generation_member_id_fkey;
ALTER TABLE ratings_history DROP CONSTRAINT IF EXISTS ratings_history_generation_member_id_fkey;

ALTER TABLE ratings_players ADD COLUMN game_type text NOT NULL DEFAULT 'dice';
ALTER TABLE ratings_roles ADD COLUMN game_type text NOT NULL DEFAULT 'dice';
ALTER TABLE ratings_history ADD COLUMN game_type text NOT NULL DEFAULT 'dice';

ALTER TABLE ratings_players DROP CONSTRAINT ratings_players_pkey;
ALTER TABLE ratings_players ADD PRIMARY KEY (generation, game_type, member_id);
ALTER TABLE ratings_roles DROP CONSTRAINT ratings_roles_pkey;
ALTER TABLE ratings_roles ADD PRIMARY KEY (generation, game_type, member_id, role);
ALTER TABLE ratings_history DROP CONSTRAINT ratings_history_pkey;
ALTER TABLE ratings_history ADD PRIMARY KEY (generation, game_type, member_id, role, game_number);

ALTER TABLE ratings_roles ADD FOREIGN KEY (generation, game_type, member_id)
    REFERENCES ratings_players (generation, game_type, member_id) ON DELETE CASCADE;
ALTER TABLE ratings_history ADD FOREIGN KEY (generation, game_type, member_id)
    REFERENCES ratings_players (generation, game_type, member_id) ON DELETE CASCADE;

-- from now on every writer names the game type
ALTER TABLE ratings_players ALTER COLUMN game_type DROP DEFAULT;
ALTER TABLE ratings_roles ALTER COLUMN game_type DROP DEFAULT;
ALTER TABLE ratings_history ALTER COLUMN game_type DROP DEFAULT;

DROP INDEX IF EXISTS ratings_players_board;
CREATE INDEX ratings_players_board ON ratings_players (generation, game_type, rating DESC, member_id);
DROP INDEX IF EXISTS ratings_roles_board;
CREATE INDEX ratings_roles_board ON ratings_roles (generation, game_type, role, rating DESC, member_id);

-- A game known only from its league's result sheet (a card game played on cardboard): rated like
-- any other, with nothing to replay.
ALTER TABLE ratings_games ADD COLUMN IF NOT EXISTS replayable boolean NOT NULL DEFAULT true;
