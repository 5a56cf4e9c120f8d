-- The open games beside a channel's own (those played in threads of it, and a tournament's
-- tables), read at each /game new and to find the game a command typed in the channel means
-- when it is not the channel's own: looked up through games_by_status alone, each read went
-- through every open game of every server. Through this index, the channel's open games alone.
CREATE INDEX games_open_by_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active');
-- The operators' metrics count the open games by game, status and server every few seconds:
-- with every column the count reads in the index, it reads the index alone, not each open
-- game's row.
CREATE INDEX games_open_counted ON games (game, status, guild_id)
    WHERE status IN ('lobby', 'active');
