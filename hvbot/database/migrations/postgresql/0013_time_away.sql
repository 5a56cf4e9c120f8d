-- Time away: a person away from a server (`/me away`) for a while, its clocks and reminders
-- standing still. Each period is kept (ended early by `/me back`): at most 30 days away are
-- allowed in any 90. The end of the current one is copied to the person's seats in that
-- server's open games (`seats.away_until`), where each move reads it with the game.
CREATE TABLE time_away (
    id BIGSERIAL PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    starts_at TEXT NOT NULL,
    ends_at TEXT NOT NULL
);
CREATE INDEX time_away_person ON time_away (guild_id, user_id, ends_at);
ALTER TABLE seats ADD COLUMN away_until TEXT;
