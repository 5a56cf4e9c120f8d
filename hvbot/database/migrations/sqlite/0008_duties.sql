-- Duties that any of several bot processes may do, claimed by one at a time.
-- The outbox: public posts a stored change still owes, written in the change's own transaction,
-- so a process that dies between storing and posting leaves them for another to post, once.
CREATE TABLE announcements (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version       INTEGER NOT NULL,                -- the game version the change made
    kind          TEXT    NOT NULL CHECK (kind IN ('move', 'text', 'replay')),
    body          TEXT    NOT NULL,                -- JSON: the move's seat and actions, a text
    created_at    TEXT    NOT NULL,
    claimed_until TEXT,                            -- a process is posting it until then
    sent_at       TEXT
);
CREATE INDEX announcements_unsent ON announcements (id) WHERE sent_at IS NULL;
CREATE INDEX announcements_by_version ON announcements (game_id, version);
-- AI seats: whether an AI is to move, and until when a process has claimed its thinking.
ALTER TABLE games ADD COLUMN ai_turn INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN ai_until TEXT;
ALTER TABLE games ADD COLUMN ai_by TEXT;  -- the process holding that claim (a random token)
CREATE INDEX games_ai_turns ON games (id) WHERE status = 'active' AND ai_turn = 1;
