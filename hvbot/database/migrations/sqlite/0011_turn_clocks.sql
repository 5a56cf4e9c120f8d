-- Turn clocks: how long the person to move has for a move, and what happens when it runs out
-- ('ai_move': an AI plays that move for them; 'ai_seat': an AI takes their seat for the rest of
-- the game). `clock_deadline` and `clock_warn_at` run while a person is to move, and each is
-- claimed once, by a compare-and-set on its own value, by whichever process finds it due.
-- `stand_in_seat` is the seat an AI is playing the current move of, its clock having run out.
-- While an undo request or an absence vote waits for answers the clock stands still
-- (`clock_paused_at`), and goes on from where it was if the game goes on without a move.
ALTER TABLE games ADD COLUMN clock_minutes INTEGER;  -- NULL: this game has no clock
ALTER TABLE games ADD COLUMN clock_timeout TEXT;     -- 'ai_move' or 'ai_seat'
ALTER TABLE games ADD COLUMN clock_deadline TEXT;    -- when the person to move runs out
ALTER TABLE games ADD COLUMN clock_warn_at TEXT;     -- when they are warned, NULL: done
ALTER TABLE games ADD COLUMN stand_in_seat INTEGER;  -- an AI plays this seat's move now
ALTER TABLE games ADD COLUMN clock_paused_at TEXT;   -- the clock stands still since then
CREATE INDEX games_clocks_due ON games (clock_deadline)
    WHERE status = 'active' AND clock_deadline IS NOT NULL;
