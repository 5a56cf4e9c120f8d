-- Turn reminders: how long the person to move may take before they are mentioned again, since
-- when they have been waiting, and when the next reminder is due. Timestamps are UTC ISO text,
-- so they compare as strings. Games from before reminders existed are never reminded.
ALTER TABLE games ADD COLUMN remind_minutes INTEGER;  -- NULL: this game never reminds
ALTER TABLE games ADD COLUMN turn_since TEXT;         -- when the person to move began waiting
ALTER TABLE games ADD COLUMN remind_at TEXT;          -- the next reminder, NULL: none due
CREATE INDEX games_reminders_due ON games (remind_at)
    WHERE status = 'active' AND remind_at IS NOT NULL;
