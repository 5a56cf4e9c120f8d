-- A game played in a thread no longer holds its channel: the channel may open another lobby
-- (up to the server's `games_per_channel`), each game in a thread of its own. A channel has
-- one open game outside threads (a lobby, or a game played in the channel), as before.
DROP INDEX games_one_open_per_channel;
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active') AND thread_id IS NULL;
