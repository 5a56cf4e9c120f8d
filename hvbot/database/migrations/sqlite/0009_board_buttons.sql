-- The one board post whose buttons are live (the choices after a Sector 6 move, the Pylons
-- opening choice), and the game version they are for: once the game moves past that version,
-- whichever process sees it takes the buttons off (see hvbot.board_buttons).
ALTER TABLE games ADD COLUMN buttons_message_id INTEGER;
ALTER TABLE games ADD COLUMN buttons_version INTEGER;
