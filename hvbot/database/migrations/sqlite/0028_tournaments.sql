-- Tournaments (/tournament new): a server's Swiss or round robin, its games ordinary games in
-- threads of its channel. A tournament's own changes compare and bump its `version`. One open
-- tournament per channel (sign-up, running or paused).
CREATE TABLE tournaments (
    id                 INTEGER PRIMARY KEY,
    guild_id           INTEGER    NOT NULL,
    channel_id         INTEGER    NOT NULL,
    creator_id         INTEGER    NOT NULL,
    game               TEXT   NOT NULL,                -- engine game name
    options            TEXT   NOT NULL DEFAULT '{}',   -- JSON: the game's options
    format             TEXT   NOT NULL CHECK (format IN ('swiss', 'round_robin')),
    rounds             INTEGER,                        -- NULL: Swiss, set at the start
    smallest           INTEGER NOT NULL,               -- seats at a table, at least
    largest            INTEGER NOT NULL,               -- and at most
    clock_minutes      INTEGER NOT NULL,               -- every table game's turn clock
    clock_timeout      TEXT   NOT NULL CHECK (clock_timeout IN ('end', 'ai_seat')),
    starts_at          TEXT,                           -- starts by itself then (NULL: by hand)
    most               INTEGER NOT NULL,               -- entrants at most
    status             TEXT   NOT NULL CHECK (status IN
                           ('signup', 'running', 'paused', 'finished', 'cancelled')),
    round              INTEGER NOT NULL DEFAULT 0,     -- the last round paired
    signup_message_id  INTEGER,
    name               TEXT   NOT NULL,
    language           TEXT   NOT NULL DEFAULT 'en',   -- of its public posts
    version            INTEGER NOT NULL DEFAULT 0,
    created_at         TEXT   NOT NULL,
    finished_at        TEXT
);
CREATE UNIQUE INDEX tournaments_one_open_per_channel ON tournaments (channel_id)
    WHERE status IN ('signup', 'running', 'paused');
CREATE INDEX tournaments_starting ON tournaments (starts_at) WHERE status = 'signup';
-- The people signed up: `seed` and `rating` set at the start (seed order by rating);
-- `withdrawn_round`: they left (or a moderator removed them, `removed`) after that many rounds
-- were paired, and are not paired again.
CREATE TABLE tournament_entrants (
    tournament_id   INTEGER     NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id         INTEGER     NOT NULL,
    name            TEXT    NOT NULL,
    language        TEXT,
    seed            INTEGER NOT NULL DEFAULT 0,
    rating          REAL,
    joined_at       TEXT    NOT NULL,
    withdrawn_round INTEGER,
    removed         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, user_id)
);
-- Each round as paired, once: its key is the claim that pairs it (of several processes that
-- see a round's last game end, one inserts it, with the round's games, in one transaction).
-- `byes`: the user ids given a bye, separated by spaces.
CREATE TABLE tournament_rounds (
    tournament_id INTEGER     NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    byes          TEXT    NOT NULL DEFAULT '',
    paired_at     TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, round)
);
-- A round's tables: each an ordinary game, its players (user ids, in seat order).
CREATE TABLE tournament_games (
    tournament_id INTEGER     NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    game_id       INTEGER     NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    players       TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, round, table_no)
);
-- A tournament's games are played several at once in threads of its channel: each is made
-- before its thread (its announcement is posted, then the thread started from it), so they
-- are left out of the rule of one open game per channel outside threads, which holds for
-- every other game as before.
ALTER TABLE games ADD COLUMN tournament_id INTEGER;
DROP INDEX games_one_open_per_channel;
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active') AND thread_id IS NULL AND tournament_id IS NULL;
-- A tournament's posts are a server's (no game): its sign-up post ('signup', posted once and
-- then edited), a round's tables ('round'), the standings after a round ('standings') and the
-- final podium ('podium'); the body names the tournament. SQLite changes a CHECK by making
-- the table again.
CREATE TABLE owed_posts (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER REFERENCES games (id) ON DELETE CASCADE,  -- NULL: a server's post
    version       INTEGER NOT NULL,                -- the game version the change made
    kind          TEXT    NOT NULL CHECK (kind IN
                      ('move', 'text', 'replay', 'start', 'secret', 'lobby', 'undo',
                       'season', 'ranks', 'digest', 'followers',
                       'signup', 'round', 'standings', 'podium')),
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
