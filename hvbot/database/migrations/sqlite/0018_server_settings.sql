-- What a server's owners set with /server settings; a server without a row, and a NULL in one,
-- keeps the bot's default for that setting.
--   game_places: ids of the channels and categories where games may be opened, separated by
--     spaces ('': anywhere the bot can post);
--   opener_role: the role a member needs to open games (NULL: everyone);
--   moderator_role: a role whose members moderate games, as Manage Messages does;
--   language: the language of the server's public posts (NULL: the server's own locale);
--   remind_minutes, absent_hours, clock_minutes, clock_timeout: what new games start with;
--   most_open: the open lobbies and games one member may have; lobby_hours: a lobby's life;
--   games_per_channel: the games a channel may hold at once, each in a thread of its own.
CREATE TABLE server_settings (
    guild_id INTEGER PRIMARY KEY,
    game_places TEXT NOT NULL DEFAULT '',
    opener_role INTEGER,
    moderator_role INTEGER,
    language TEXT,
    remind_minutes INTEGER,
    absent_hours INTEGER,
    clock_minutes INTEGER,
    clock_timeout TEXT,
    most_open INTEGER,
    lobby_hours INTEGER,
    games_per_channel INTEGER
);
