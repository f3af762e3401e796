-- Up Migration

-- Concurrent writes that touch the same (bucket, meter) used to queue on its single rollup row until commit, so
-- batches spanning many hours and meters ran one at a time. Each write now adds to one of a few shard rows (chosen by
-- connection); summaries already sum whatever rows a bucket has, so readers need no change.
ALTER TABLE usage_rollups_hourly ADD COLUMN shard smallint NOT NULL DEFAULT 0;
ALTER TABLE usage_rollups_hourly DROP CONSTRAINT usage_rollups_hourly_pkey, ADD PRIMARY KEY (account_id, bucket, meter, shard);
ALTER TABLE usage_rollups_daily ADD COLUMN shard smallint NOT NULL DEFAULT 0;
ALTER TABLE usage_rollups_daily DROP CONSTRAINT usage_rollups_daily_pkey, ADD PRIMARY KEY (account_id, bucket, meter, shard);

-- Down Migration

-- Fold every shard into shard 0, then restore the one-row-per-bucket key.
WITH moved AS (DELETE FROM usage_rollups_hourly WHERE shard <> 0 RETURNING account_id, bucket, meter, total_usage, event_count)
INSERT INTO usage_rollups_hourly AS r (account_id, bucket, meter, shard, total_usage, event_count)
SELECT account_id, bucket, meter, 0, sum(total_usage), sum(event_count) FROM moved GROUP BY 1, 2, 3
ON CONFLICT (account_id, bucket, meter, shard)
DO UPDATE SET total_usage = r.total_usage + EXCLUDED.total_usage, event_count = r.event_count + EXCLUDED.event_count;
ALTER TABLE usage_rollups_hourly DROP CONSTRAINT usage_rollups_hourly_pkey, DROP COLUMN shard, ADD PRIMARY KEY (account_id, bucket, meter);
WITH moved AS (DELETE FROM usage_rollups_daily WHERE shard <> 0 RETURNING account_id, bucket, meter, total_usage, event_count)
INSERT INTO usage_rollups_daily AS r (account_id, bucket, meter, shard, total_usage, event_count)
SELECT account_id, bucket, meter, 0, sum(total_usage), sum(event_count) FROM moved GROUP BY 1, 2, 3
ON CONFLICT (account_id, bucket, meter, shard)
DO UPDATE SET total_usage = r.total_usage + EXCLUDED.total_usage, event_count = r.event_count + EXCLUDED.event_count;
ALTER TABLE usage_rollups_daily DROP CONSTRAINT usage_rollups_daily_pkey, DROP COLUMN shard, ADD PRIMARY KEY (account_id, bucket, meter);
