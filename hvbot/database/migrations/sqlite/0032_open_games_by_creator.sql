-- /game new counts the open games of its creator in the server (the most a person may have
-- open): looked up through games_by_status alone, that read every open game of every server
-- for each game opened, so opening n games cost n squared (10,000 open games: the bot's
-- database thread was busy with that count most of the time).
CREATE INDEX games_open_by_creator ON games (guild_id, creator_id)
    WHERE status IN ('lobby', 'active');
