-- Games, their seats, the action log and the prompts waiting for a player.
CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    game             TEXT    NOT NULL,             -- engine game name, e.g. high-voltage
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    creator_id       INTEGER NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    seed             INTEGER,                      -- secret: never shown, never logged
    options          TEXT    NOT NULL DEFAULT '{}',
    state            TEXT,                         -- engine state as JSON once started
    version          INTEGER NOT NULL DEFAULT 0,   -- bumped by every change: compare-and-set
    lobby_message_id INTEGER,
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL,
    ended_at         TEXT
);
-- One open game per channel, enforced by the database itself.
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_status ON games (status);

CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    user_id      INTEGER,                          -- NULL for an AI seat
    ai_level     TEXT,                             -- NULL for a person
    display_name TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL;

CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n          INTEGER NOT NULL,                   -- 0, 1, 2, ... in order
    seat       INTEGER NOT NULL,
    action     TEXT    NOT NULL,                   -- the engine's text form
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, n)
);

CREATE TABLE prompts (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,                   -- 'place' (a drawn card) or 'declare' (lines)
    user_id    INTEGER NOT NULL,
    version    INTEGER NOT NULL,                   -- the game version the prompt was made for
    created_at TEXT    NOT NULL,
    resolved   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX prompts_open ON prompts (game_id) WHERE resolved = 0;
