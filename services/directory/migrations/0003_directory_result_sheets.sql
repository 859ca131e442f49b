-- Idempotent like 0001 (`reset` re-runs every file).
-- A card game played on cardboard is known from its league's result sheet only: its table shows
-- the sheet's winning side, finished and not replayable.
ALTER TABLE directory_tables ADD COLUMN IF NOT EXISTS sheet_winning_side text;
ALTER TABLE directory_tables ADD COLUMN IF NOT EXISTS sheet_voided boolean NOT NULL DEFAULT false;
