-- The live board on the web (WEB_PORT). A server's own column, NULL keeping the default:
--   live_links: 0 when the server's owners turned the boards' links off (NULL: on).
ALTER TABLE server_settings ADD COLUMN live_links INTEGER;
-- The secret the links are signed with when WEB_SECRET is not set: made by the first process
-- that serves boards and read by every other, so that a link works whichever process serves it
-- and after a restart. One row.
CREATE TABLE web_secret (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    secret TEXT    NOT NULL
);
