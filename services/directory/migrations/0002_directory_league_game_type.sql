-- A league plays one game type (docs/league.md, "Game types"): shown with the league in its
-- lists and view. Leagues founded before game types played dice. Idempotent like 0001 (`reset`
-- re-runs every file).
ALTER TABLE directory_leagues ADD COLUMN IF NOT EXISTS game_type text NOT NULL DEFAULT 'dice';
