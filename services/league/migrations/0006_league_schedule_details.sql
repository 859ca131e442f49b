-- A schedule says when and how its table plays (issue 22): the date and time, the ruleset (its
-- modules, the card game's options) and the decision timer. An online game is created with them
-- at once; a table game's scorekeeper starts it later from the reservation, so the reservation
-- keeps them (as `GameScheduled` does). Rows reserved before said none of it. Idempotent like 0001.
ALTER TABLE league_game_reservations ADD COLUMN IF NOT EXISTS starts_at timestamptz;
ALTER TABLE league_game_reservations ADD COLUMN IF NOT EXISTS ruleset text;
ALTER TABLE league_game_reservations ADD COLUMN IF NOT EXISTS decision_timeout_seconds integer;
