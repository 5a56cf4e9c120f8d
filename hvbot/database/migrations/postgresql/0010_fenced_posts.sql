-- Every post a change owes goes through the outbox now (the first board and each seat's secret
-- at the start, lobby updates, a move taken back, as well as moves, reminders and replays), and
-- each is taken right before it is sent with a fencing token: `token` counts the claims, so a
-- process whose claim was taken over can no longer take the post. `nonce` is what Discord is
-- given with the message, so that it refuses a second copy within its window.
ALTER TABLE announcements DROP CONSTRAINT announcements_kind_check;
ALTER TABLE announcements ADD CONSTRAINT announcements_kind_check CHECK (kind IN
    ('move', 'text', 'replay', 'start', 'secret', 'lobby', 'undo'));
ALTER TABLE announcements ADD COLUMN token INTEGER NOT NULL DEFAULT 0;
ALTER TABLE announcements ADD COLUMN nonce TEXT;
