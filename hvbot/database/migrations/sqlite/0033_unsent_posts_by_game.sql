-- A post of a game's channel is taken only once every earlier one of its game is out, and an
-- AI seat waits while its game owes a post: both look up a game's unsent posts, on every move.
-- Through the index of every unsent post (by id) that read the unsent posts of all the games,
-- and, on PostgreSQL, every post marked sent since the table was last vacuumed (a row leaves a
-- partial index only then); through the index by game and version, every post the game ever
-- made. This one holds a game's unsent posts in order, so each check reads only those.
CREATE INDEX announcements_unsent_by_game ON announcements (game_id, id) WHERE sent_at IS NULL;
