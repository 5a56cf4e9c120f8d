-- An unstarted lobby lives a day (`lobby_expires_at`, set when it is opened): then it closes
-- itself and says so, so a channel is never held by a lobby everyone forgot. Lobbies opened
-- before this have none and stay until someone starts or abandons them.
ALTER TABLE games ADD COLUMN lobby_expires_at TEXT;
