-- Requests to take back a game's last action, waiting for the other people's answers. A request
-- is for one version of the game: once anyone acts, it is void.
CREATE TABLE undo_requests (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version      INTEGER NOT NULL,                 -- the game version the request is for
    n            INTEGER NOT NULL,                 -- the number of the action to take back
    requester_id INTEGER NOT NULL,
    action       TEXT    NOT NULL,                 -- its text, to say what is taken back
    asked        TEXT    NOT NULL,                 -- JSON list of the user ids who must accept
    accepted     TEXT    NOT NULL DEFAULT '[]',    -- JSON list of those who have
    status       TEXT    NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'done', 'refused', 'void')),
    message_id   INTEGER,
    created_at   TEXT    NOT NULL
);
CREATE INDEX undo_requests_open ON undo_requests (game_id) WHERE status = 'open';
