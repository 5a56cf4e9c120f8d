-- One row per seat of every finished game: what /stats reads, without decoding saved states.
-- Written in the transaction that stores the finishing move; abandoned games get none.
-- Only the public end of a game is kept here (scores and winners), never secrets or seeds.
CREATE TABLE results (
    game_id      BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL,
    game         TEXT    NOT NULL,                 -- engine game name, e.g. pylons
    guild_id     BIGINT,
    user_id      BIGINT,                           -- NULL for an AI seat
    display_name TEXT    NOT NULL,                 -- as seated in that game
    score        INTEGER NOT NULL,
    won          INTEGER NOT NULL CHECK (won IN (0, 1)),  -- shared wins count for each winner
    finished_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
-- A server's games of one kind in finishing order: the order ratings are computed in.
CREATE INDEX results_by_guild ON results (guild_id, game, finished_at, game_id);
-- One person's games on a server.
CREATE INDEX results_by_user ON results (user_id, guild_id, game) WHERE user_id IS NOT NULL;
