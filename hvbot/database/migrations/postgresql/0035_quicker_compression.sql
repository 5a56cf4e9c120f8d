-- Every move rewrites its game's state, JSON of 4 kB for High Voltage, which PostgreSQL
-- compresses once a row passes 2 kB. Its own compressor (pglz) took two thirds of such an
-- update's time on the server; LZ4 takes a third as long and stores a little more. A server
-- built without LZ4, or older than PostgreSQL 14 (which cannot choose), keeps pglz: the
-- statement is run only where the setting that lists the methods offers LZ4.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_settings
               WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
        EXECUTE 'ALTER TABLE games ALTER COLUMN state SET COMPRESSION lz4';
    END IF;
END
$$;
-- A replay is a GIF, compressed already: the server tried to compress every one in vain
-- (five times as long as storing it, for a GIF of 1.4 MB) and then stored it as it was.
ALTER TABLE replays ALTER COLUMN gif SET STORAGE EXTERNAL;
