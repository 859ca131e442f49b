-- Side offsets per ruleset (``Ruleset.text``: ``dice``, ``dice OS1 OS3``): each module set
-- balances the sides its own way, so its offsets are fitted apart from the base game's. Rows
-- written before were all fitted on base games.
ALTER TABLE ratings_offsets ADD COLUMN ruleset text NOT NULL DEFAULT 'dice';
ALTER TABLE ratings_offsets DROP CONSTRAINT ratings_offsets_pkey;
ALTER TABLE ratings_offsets ADD PRIMARY KEY (generation, ruleset, players, faction);
-- from now on every writer names the ruleset
ALTER TABLE ratings_offsets ALTER COLUMN ruleset DROP DEFAULT;
