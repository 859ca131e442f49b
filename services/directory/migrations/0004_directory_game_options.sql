-- A game's ruleset options (the card game's `eight_players`), apart from its expansion modules:
-- before this column the projection listed them with the modules. Idempotent like 0001 (`reset`
-- re-runs every file); rows projected before it are moved over here, so no replay is needed.
ALTER TABLE directory_games ADD COLUMN IF NOT EXISTS options text[] NOT NULL DEFAULT '{}';
UPDATE directory_games
   SET options = array['eight_players'], modules = array_remove(modules, 'eight_players')
 WHERE 'eight_players' = ANY (modules);
