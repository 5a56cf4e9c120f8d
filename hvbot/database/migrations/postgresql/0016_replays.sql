-- A finished game's replay, drawn once per language its pictures are in and kept, so that
-- asking for it again (/game replay) sends what was drawn instead of drawing it again.
-- `positions`, `shown` and `complete` are what the caption says of it.
CREATE TABLE replays (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    language TEXT NOT NULL,
    gif BYTEA NOT NULL,
    positions INTEGER NOT NULL,
    shown TEXT NOT NULL,
    PRIMARY KEY (game_id, language)
);
