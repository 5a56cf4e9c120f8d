-- When each of Discord's identify buckets next admits a session: processes that share the
-- bot's shards take turns, one IDENTIFY per bucket per interval, and none is refused.
--   bucket: shard_id % max_concurrency, as Discord counts them;
--   opens_at: when the bucket admits the next one, in seconds since the epoch.
CREATE TABLE identify_slots (
    bucket INTEGER PRIMARY KEY,
    opens_at DOUBLE PRECISION NOT NULL
);
