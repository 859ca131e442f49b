-- The game type and ruleset (``Ruleset.text``: ``dice``, ``dice OS1 OS2``) each game was created
-- with, so a rated game's neutral result names the rules it was played with. NULL on rows
-- written before: those games are the base dice game.
ALTER TABLE ratings_games ADD COLUMN IF NOT EXISTS game_type text;
ALTER TABLE ratings_games ADD COLUMN IF NOT EXISTS ruleset text;
