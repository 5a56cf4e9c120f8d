-- A finished game's rematch: a new lobby with the same game, options and AI seats, the seats
-- rotated, which starts once every person who played has accepted. `game_id` is the finished
-- game and the key: one rematch per game, whichever process or click asks first.
CREATE TABLE rematches (
    game_id    INTEGER NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    lobby_id   INTEGER NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,             -- who asked for it (accepted by asking)
    created_at TEXT    NOT NULL
);
-- The people invited to a rematch's lobby and whether they accepted. While one has not, the
-- lobby is the table of the game before and nothing else; a decline deletes them all, and the
-- lobby is an ordinary one from then on.
CREATE TABLE rematch_invites (
    lobby_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    accepted   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (lobby_id, user_id)
);
