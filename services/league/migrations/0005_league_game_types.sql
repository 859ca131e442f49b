-- Game types (issue 14): a league plays dice or cards. A reservation carries its league's game
-- type, so the game server refuses a game of the other type for that table; `result_sheet` is
-- set once the table's result sheet is recorded (a card game played entirely on cardboard), after
-- which no game may be created under that id. Rows reserved before were dice games.
ALTER TABLE league_game_reservations ADD COLUMN IF NOT EXISTS game_type text NOT NULL DEFAULT 'dice';
ALTER TABLE league_game_reservations ADD COLUMN IF NOT EXISTS result_sheet boolean NOT NULL DEFAULT false;
-- A game known only from its result sheet has no stream to replay. Idempotent like 0001
-- (`read_model.reset` re-runs every file).
ALTER TABLE league_games ADD COLUMN IF NOT EXISTS replayable boolean NOT NULL DEFAULT true;
