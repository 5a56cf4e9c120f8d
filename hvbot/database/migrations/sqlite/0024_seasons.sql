-- Seasons (/server settings season:). A server's own columns, NULL keeping the default:
--   season_length: 'month' or 'quarter' (NULL: no seasons); season_since: when they were
--     turned on, so that only a season that ended after it is announced;
--   season_channel: where a season's end is announced; rank_role: the role the best players
--     of each game hold for the season after (NULL: none given).
ALTER TABLE server_settings ADD COLUMN season_length TEXT;
ALTER TABLE server_settings ADD COLUMN season_since TEXT;
ALTER TABLE server_settings ADD COLUMN season_channel INTEGER;
ALTER TABLE server_settings ADD COLUMN rank_role INTEGER;
-- Each season that ended on a server, recorded once, by whichever process saw it first, in the
-- transaction that owes its announcement; `ranked`: the people given the rank role for it,
-- separated by spaces, who lose it at the next season's end.
CREATE TABLE season_ends (
    guild_id INTEGER NOT NULL,
    label    TEXT    NOT NULL,
    ended_at TEXT    NOT NULL,
    ranked   TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (guild_id, label)
);
-- The outbox takes posts owed by a server rather than a game: a season's end ('season') and
-- its rank roles ('ranks'), with `guild_id` set and no game. SQLite changes a column's NOT
-- NULL and a CHECK only by copying the table.
CREATE TABLE owed_posts (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER REFERENCES games (id) ON DELETE CASCADE,  -- NULL: a server's post
    version       INTEGER NOT NULL,                -- the game version the change made
    kind          TEXT    NOT NULL CHECK (kind IN
                      ('move', 'text', 'replay', 'start', 'secret', 'lobby', 'undo',
                       'season', 'ranks')),
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
                        token, nonce)
    SELECT id, game_id, version, kind, body, created_at, claimed_until, sent_at, token, nonce
    FROM announcements;
DROP TABLE announcements;
ALTER TABLE owed_posts RENAME TO announcements;
CREATE INDEX announcements_unsent ON announcements (id) WHERE sent_at IS NULL;
CREATE INDEX announcements_by_version ON announcements (game_id, version);
