-- A thread per game: whether the game asked for one (/game new thread:), and the thread its
-- board posts go to once it started (NULL: the game is played in its channel).
ALTER TABLE games ADD COLUMN wants_thread INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN thread_id BIGINT;
-- Commands typed in a game's thread find the game by the thread's id.
CREATE INDEX games_by_thread ON games (thread_id) WHERE thread_id IS NOT NULL;
