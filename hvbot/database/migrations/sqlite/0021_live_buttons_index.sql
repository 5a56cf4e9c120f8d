-- The few games whose latest board post has live buttons, so that a process starting finds
-- those it must take buttons off without reading every game.
CREATE INDEX games_live_buttons ON games (id) WHERE buttons_message_id IS NOT NULL;
