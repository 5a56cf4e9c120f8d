-- Each person's own turn reminders (`/me notify`), for every game they play in any server:
-- where they go ('channel', 'dm', 'both' or 'none'), how often (minutes; NULL: as each game
-- says), and their quiet hours as they set them ('Europe/Rome 22:30-07:00'; NULL: none).
CREATE TABLE notify_settings (
    user_id BIGINT PRIMARY KEY,
    remind_where TEXT NOT NULL DEFAULT 'channel',
    remind_every INTEGER,
    quiet TEXT
);
