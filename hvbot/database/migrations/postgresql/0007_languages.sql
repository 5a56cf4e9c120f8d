-- Languages: the one a game's public posts are written in (the server's preferred locale when
-- the game was opened), and each seated person's (their Discord client's, as last seen), for
-- what the bot tells them alone when no interaction of theirs is at hand (a direct message).
ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
ALTER TABLE seats ADD COLUMN language TEXT;  -- NULL for an AI seat
