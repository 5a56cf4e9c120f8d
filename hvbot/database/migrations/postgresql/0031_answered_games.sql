-- How a game's posts reach its players. 'channel': posted in its channel or thread, as the
-- bot may post there on its own. 'interaction': a game in a private channel (the bot's DM, a
-- DM or a group DM between people who installed the app themselves), where Discord lets the
-- app speak only in answer to an interaction: its owed posts are sent as the answer to the
-- next interaction in that game (its response or a follow-up), never to the channel.
ALTER TABLE games ADD COLUMN delivery TEXT NOT NULL DEFAULT 'channel';
