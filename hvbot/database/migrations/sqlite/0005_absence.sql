-- Absent players: how long the person to move may be away before the others may vote to let an
-- AI play their seat (or to end the game), the votes, and whose seat an AI plays meanwhile.
ALTER TABLE games ADD COLUMN absent_hours INTEGER;  -- NULL: no takeover votes in this game
ALTER TABLE seats ADD COLUMN away_user_id INTEGER;  -- the person an AI stands in for
CREATE TABLE absence_votes (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,                 -- the game version the vote is for
    seat       INTEGER NOT NULL,                 -- the absent person's seat
    asked      TEXT    NOT NULL,                 -- JSON list of the user ids who vote
    votes      TEXT    NOT NULL DEFAULT '{}',    -- JSON object: user id -> "ai" or "end"
    status     TEXT    NOT NULL DEFAULT 'open'
               CHECK (status IN ('open', 'ai', 'end', 'void')),
    created_at TEXT    NOT NULL
);
CREATE INDEX absence_votes_open ON absence_votes (game_id) WHERE status = 'open';
