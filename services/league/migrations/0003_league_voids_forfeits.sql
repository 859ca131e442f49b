-- Issue 11: voids, forfeits, closed rounds, and a league game counted only when its league
-- scheduled it (docs/league.md, "Integrity" and "Forfeits and no-shows"). Idempotent like
-- 0001: `read_model.reset` drops the tables and re-runs every file.

-- The games each league scheduled, whenever the game itself was created (before or after).
-- `season_id` is the tournament's season when it was scheduled: a game counts only if its
-- context names that season, that tournament, round and table.
CREATE TABLE IF NOT EXISTS league_scheduled_games (
    league_id     text NOT NULL,
    game_id       text NOT NULL,
    tournament_id text NOT NULL,
    round         integer NOT NULL,
    table_no      integer NOT NULL,
    season_id     text,
    mode          text,
    PRIMARY KEY (league_id, game_id)
);

-- Games a league voided (a referee's or organiser's GameVoided), even before they were created.
CREATE TABLE IF NOT EXISTS league_voided_games (
    league_id   text NOT NULL,
    game_id     text NOT NULL,
    reason      text NOT NULL,
    voided_by   text NOT NULL,
    PRIMARY KEY (league_id, game_id)
);

-- One row per forfeit or no-show: the member scores a loss with no points in that round.
CREATE TABLE IF NOT EXISTS league_forfeits (
    league_id     text NOT NULL,
    tournament_id text NOT NULL,
    round         integer NOT NULL,
    member_id     text NOT NULL,
    table_no      integer NOT NULL,
    season_id     text NOT NULL,
    kind          text NOT NULL,
    reason        text NOT NULL DEFAULT '',
    PRIMARY KEY (league_id, tournament_id, round, member_id)
);

-- One row per seated round; `closed` once the organiser closed it (RoundClosed).
CREATE TABLE IF NOT EXISTS league_rounds (
    league_id     text NOT NULL,
    tournament_id text NOT NULL,
    round         integer NOT NULL,
    season_id     text NOT NULL,
    closed        boolean NOT NULL DEFAULT false,
    PRIMARY KEY (league_id, tournament_id, round)
);

-- Where a game claiming a league stands: `scheduled` (its league scheduled it at the table its
-- context names), `voided`, and `counted` (finished, scheduled and not voided: its results are
-- in league_standings and league_head_to_head). A finished game that is not counted is what
-- an audit looks at (read_model.uncounted_games).
ALTER TABLE league_games ADD COLUMN IF NOT EXISTS scheduled boolean NOT NULL DEFAULT false;
ALTER TABLE league_games ADD COLUMN IF NOT EXISTS voided boolean NOT NULL DEFAULT false;
ALTER TABLE league_games ADD COLUMN IF NOT EXISTS counted boolean NOT NULL DEFAULT false;

ALTER TABLE league_standings ADD COLUMN IF NOT EXISTS forfeits integer NOT NULL DEFAULT 0;
-- enrolled members keep their line at zero; anyone else's goes when a void takes their last game
ALTER TABLE league_standings ADD COLUMN IF NOT EXISTS enrolled boolean NOT NULL DEFAULT false;

-- The rows written before this file counted every game claiming a league; the projection is
-- disposable, so it starts over from position 0 under the new rules.
TRUNCATE league_seasons, league_tournaments, league_tables, league_byes, league_games, league_game_seats,
    league_game_results, league_standings, league_head_to_head;
DELETE FROM checkpoints WHERE name = 'league-standings';
