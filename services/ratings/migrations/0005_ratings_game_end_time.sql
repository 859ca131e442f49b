-- When each rated game's end was recorded (the `recorded_at` of its GameEnded event), so a
-- rating history can be drawn by date. Event metadata, so a rebuild writes the same times.
-- NULL on rows rated before this column: a rebuild fills them.
ALTER TABLE ratings_games ADD COLUMN IF NOT EXISTS ended_at timestamptz;
