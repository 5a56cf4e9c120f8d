-- Seasons (/server settings season:). A server's own columns, NULL keeping the default:
--   season_length: 'month' or 'quarter' (NULL: no seasons); season_since: when they were
--     turned on, so that only a season that ended after it is announced;
--   season_channel: where a season's end is announced; rank_role: the role the best players
--     of each game hold for the season after (NULL: none given).
ALTER TABLE server_settings ADD COLUMN season_length TEXT;
ALTER TABLE server_settings ADD COLUMN season_since TEXT;
ALTER TABLE server_settings ADD COLUMN season_channel BIGINT;
ALTER TABLE server_settings ADD COLUMN rank_role BIGINT;
-- Each season that ended on a server, recorded once, by whichever process saw it first, in the
-- transaction that owes its announcement; `ranked`: the people given the rank role for it,
-- separated by spaces, who lose it at the next season's end.
CREATE TABLE season_ends (
    guild_id BIGINT NOT NULL,
    label    TEXT   NOT NULL,
    ended_at TEXT   NOT NULL,
    ranked   TEXT   NOT NULL DEFAULT '',
    PRIMARY KEY (guild_id, label)
);
-- The outbox takes posts owed by a server rather than a game: a season's end ('season') and
-- its rank roles ('ranks'), with `guild_id` set and no game.
ALTER TABLE announcements ALTER COLUMN game_id DROP NOT NULL;
ALTER TABLE announcements ADD COLUMN guild_id BIGINT;
ALTER TABLE announcements ADD CONSTRAINT announcements_owner_check
    CHECK (game_id IS NOT NULL OR guild_id IS NOT NULL);
ALTER TABLE announcements DROP CONSTRAINT announcements_kind_check;
ALTER TABLE announcements ADD CONSTRAINT announcements_kind_check CHECK (kind IN
    ('move', 'text', 'replay', 'start', 'secret', 'lobby', 'undo', 'season', 'ranks'));
