-- Posts a follower is owed get kinds of their own: a follower's digest by DM ('digest'), and
-- at a game's start the followers of its lobby joined to its thread ('followers'). Neither is
-- what an AI seat waits for: a follower's DM never holds up a move.
ALTER TABLE announcements DROP CONSTRAINT announcements_kind_check;
ALTER TABLE announcements ADD CONSTRAINT announcements_kind_check CHECK (kind IN
    ('move', 'text', 'replay', 'start', 'secret', 'lobby', 'undo', 'season', 'ranks',
     'digest', 'followers'));
-- The moves a follower by DM was told and that were taken back since, to be told in their next
-- digest: one line of JSON each (who took back which move, as the channel was told), appended
-- by the take-back's own transaction. NULL: none.
ALTER TABLE follows ADD COLUMN taken_back TEXT;
