-- Posts a follower is owed get kinds of their own: a follower's digest by DM ('digest'), and
-- at a game's start the followers of its lobby joined to its thread ('followers'). Neither is
-- what an AI seat waits for: a follower's DM never holds up a move. SQLite changes a CHECK only
-- by copying the table.
CREATE TABLE owed_posts (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER REFERENCES games (id) ON DELETE CASCADE,  -- NULL: a server's post
    version       INTEGER NOT NULL,                -- the game version the change made
    kind          TEXT    NOT NULL CHECK (kind IN
                      ('move', 'text', 'replay', 'start', 'secret', 'lobby', 'undo',
                       'season', 'ranks', 'digest', 'followers')),
    body          TEXT    NOT NULL,                -- JSON: what the post says, by kind
    created_at    TEXT    NOT NULL,
    claimed_until TEXT,                            -- a process is posting it until then
    sent_at       TEXT,
    token         INTEGER NOT NULL DEFAULT 0,      -- bumped by every claim and take
    nonce         TEXT,
    guild_id      INTEGER,                         -- the server of a server's post
    CHECK (game_id IS NOT NULL OR guild_id IS NOT NULL)
);
INSERT INTO owed_posts (id, game_id, version, kind, body, created_at, claimed_until, sent_at,
                        token, nonce, guild_id)
    SELECT id, game_id, version, kind, body, created_at, claimed_until, sent_at, token, nonce,
           guild_id
    FROM announcements;
DROP TABLE announcements;
ALTER TABLE owed_posts RENAME TO announcements;
CREATE INDEX announcements_unsent ON announcements (id) WHERE sent_at IS NULL;
CREATE INDEX announcements_by_version ON announcements (game_id, version);
-- The moves a follower by DM was told and that were taken back since, to be told in their next
-- digest: one line of JSON each (who took back which move, as the channel was told), appended
-- by the take-back's own transaction. NULL: none.
ALTER TABLE follows ADD COLUMN taken_back TEXT;
