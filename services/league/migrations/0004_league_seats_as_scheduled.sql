-- A league game counts only with the members seated at its table (docs/league.md, "Only what
-- the league scheduled"): `seats_match` says whether the game's seats hold exactly the seated
-- table's members. Idempotent like 0001 (`read_model.reset` re-runs every file).
ALTER TABLE league_games ADD COLUMN IF NOT EXISTS seats_match boolean NOT NULL DEFAULT false;

-- rows written before counted games whatever their seats: replay under the rule
TRUNCATE league_seasons, league_tournaments, league_tables, league_byes, league_games, league_game_seats,
    league_game_results, league_standings, league_head_to_head, league_scheduled_games,
    league_voided_games, league_forfeits, league_rounds;
DELETE FROM checkpoints WHERE name = 'league-standings';
