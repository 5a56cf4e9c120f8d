-- People who follow a game they do not play (/game follow, or the Follow button): joined to
-- its thread, or told its moves by direct message, as a digest at their own reminder settings
-- (quiet hours hold it until they end; `every` spaces digests out). A digest is claimed with a
-- compare-and-set on `seen_version` (and `due_at`), its words owed in the outbox in the same
-- transaction, so each move is told once, whichever process claims it.
CREATE TABLE follows (
    user_id      INTEGER NOT NULL,
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    by_dm        INTEGER NOT NULL,            -- 1: digests by DM; 0: joined to the game's thread
    language     TEXT    NOT NULL DEFAULT 'en', -- the follower's, for their digests
    since        TEXT    NOT NULL,
    seen_moves   INTEGER NOT NULL DEFAULT 0,  -- the game's stored actions told so far
    seen_version INTEGER NOT NULL DEFAULT 0,  -- the game's version when last looked at
    due_at       TEXT,                        -- no digest before then (NULL: as soon as news)
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX follows_by_game ON follows (game_id);
