-- What a schedule says of its table (issue 22): when it plays, its ruleset and decision timer
-- (`GameScheduled.starts_at`, `.ruleset`, `.decision_timeout_seconds`). Idempotent like 0001
-- (`reset` re-runs every file); tables scheduled before say none of it.
ALTER TABLE directory_tables ADD COLUMN IF NOT EXISTS starts_at timestamptz;
ALTER TABLE directory_tables ADD COLUMN IF NOT EXISTS ruleset text;
ALTER TABLE directory_tables ADD COLUMN IF NOT EXISTS decision_timeout_seconds integer;
