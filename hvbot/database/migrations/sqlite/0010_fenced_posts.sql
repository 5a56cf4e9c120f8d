-- Every post a change owes goes through the outbox now (the first board and each seat's secret
-- at the start, lobby updates, a move taken back, as well as moves, reminders and replays), and
-- each is taken right before it is sent with a fencing token: `token` counts the claims, so a
-- process whose claim was taken over can no longer take the post. `nonce` is what Discord is
-- given with the message, so that it refuses a second copy within its window.
CREATE TABLE owed_posts (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version       INTEGER NOT NULL,                -- the game version the change made
    kind          TEXT    NOT NULL CHECK (kind IN
                      ('move', 'text', 'replay', 'start', 'secret', 'lobby', 'undo')),
    body          TEXT    NOT NULL,                -- JSON: what the post says, by kind
    created_at    TEXT    NOT NULL,
    claimed_until TEXT,                            -- a process is posting it until then
    sent_at       TEXT,
    token         INTEGER NOT NULL DEFAULT 0,      -- bumped by every claim and take
    nonce         TEXT
);
INSERT INTO owed_posts (id, game_id, version, kind, body, created_at, claimed_until, sent_at)
    SELECT id, game_id, version, kind, body, created_at, claimed_until, sent_at FROM announcements;
DROP TABLE announcements;
ALTER TABLE owed_posts RENAME TO announcements;
CREATE INDEX announcements_unsent ON announcements (id) WHERE sent_at IS NULL;
CREATE INDEX announcements_by_version ON announcements (game_id, version);
