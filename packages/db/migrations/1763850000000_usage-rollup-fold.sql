-- Up Migration

-- Rollups folded in behind ingest (issue 27). An insert of entries no longer adds to the hourly and daily rollups in
-- its own statement: a fold (packages/db usage-fold.repository.ts, run by the metering worker every few hundred ms)
-- adds every entry written since the last fold in one pass, so a burst of batches touches each (hour, meter) rollup
-- row once per fold instead of once per batch. A summary stays exact and read-your-writes: it adds to the rollups the
-- entries no fold has added yet (usage_unfolded_entries below), in the same snapshot as the rollups it reads.
--
-- Which entries are folded is decided by the writing transaction's id, not by the entry id, because ids are drawn
-- in one order and committed in another: an entry with a smaller id may commit after the fold has passed it.
-- ingest_xid is the id of the transaction that wrote the entry (taken before its entry ids are drawn). The state says:
--   * every entry with ingest_xid < folded_xid is in the rollups, and no entry with ingest_xid >= folded_xid is;
--   * every entry with ingest_xid >= folded_xid has id > folded_id (so the unfolded ones are found by a primary key
--     range scan at the end of the table);
--   * pending_id was read from the id sequence before transaction id pending_xid - 1 was assigned (to the fold that
--     read it): every entry with ingest_xid >= pending_xid has id > pending_id. The next fold may move
--     folded_(xid, id) there once no transaction older than pending_xid is still running (every entry below it is
--     then committed or gone).
-- Entries written before this migration have ingest_xid NULL: their own statements added them to the rollups.
ALTER TABLE usage_entries ADD COLUMN ingest_xid bigint;

CREATE TABLE usage_fold_state (
  singleton    boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  folded_xid   bigint NOT NULL,
  folded_id    bigint NOT NULL,
  pending_xid  bigint NOT NULL,
  pending_id   bigint NOT NULL,
  folded_at    timestamptz NOT NULL DEFAULT now()
);

-- Every entry that exists now has ingest_xid NULL; every later one gets an id above the sequence's current value.
INSERT INTO usage_fold_state (folded_xid, folded_id, pending_xid, pending_id)
SELECT 0, last_id, 0, last_id
  FROM (SELECT COALESCE(pg_sequence_last_value(pg_get_serial_sequence('usage_entries', 'id')::regclass), 0) AS last_id) s;

-- The account's entries that no fold has added to the rollups yet, as the calling statement's snapshot sees them.
-- STABLE, so its queries run in that snapshot: a summary reads the fold state, the rollups and these entries as of
-- one instant, and an entry is counted by exactly one of them. They are the last rows of the primary key, and the
-- scan must be that range whatever the statistics say: the new column has none worth the name, and a scan of the
-- account's index (10,000,000 entries for a large account) or of the table would take seconds. So the range is
-- planned with the state's values (EXECUTE), the account is filtered above a fence (OFFSET 0) so its index cannot
-- be chosen, and sequential scans, parallel workers and JIT are off for the call.
CREATE FUNCTION usage_unfolded_entries(p_account_id uuid)
RETURNS TABLE (meter text, usage numeric, occurred_at timestamptz)
LANGUAGE plpgsql STABLE
SET enable_seqscan = off
SET max_parallel_workers_per_gather = 0
SET jit = off
AS $$
DECLARE
  state usage_fold_state;
BEGIN
  SELECT * INTO STRICT state FROM usage_fold_state;
  RETURN QUERY EXECUTE
    'SELECT e.meter, e.usage, e.occurred_at
       FROM (SELECT account_id, meter, usage, occurred_at FROM usage_entries WHERE id > $1 AND ingest_xid >= $2 OFFSET 0) e
      WHERE e.account_id = $3'
    USING state.folded_id, state.folded_xid, p_account_id;
END
$$;

-- Down Migration

-- The code before this migration reads the rollups alone, so the entries no fold has added yet are added to them here,
-- or every summary would miss them. The lock lets no writer of entries in (and waits for those in flight), so every
-- unfolded entry is committed and seen by the statement below.
LOCK TABLE usage_entries IN SHARE MODE;
WITH state AS (SELECT folded_xid, folded_id FROM usage_fold_state),
folded AS MATERIALIZED (
  SELECT e.account_id, date_bin('1 hour', e.occurred_at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS hour, e.meter,
         sum(e.usage) AS total_usage, count(*) AS event_count
    FROM usage_entries e, state s
   WHERE e.id > s.folded_id AND e.ingest_xid >= s.folded_xid
   GROUP BY 1, 2, 3
),
hourly AS (
  INSERT INTO usage_rollups_hourly AS r (account_id, bucket, meter, shard, total_usage, event_count)
  SELECT account_id, hour, meter, 0, total_usage, event_count FROM folded
  ON CONFLICT (account_id, bucket, meter, shard)
  DO UPDATE SET total_usage = r.total_usage + EXCLUDED.total_usage, event_count = r.event_count + EXCLUDED.event_count
)
INSERT INTO usage_rollups_daily AS r (account_id, bucket, meter, shard, total_usage, event_count)
SELECT account_id, (hour AT TIME ZONE 'UTC')::date, meter, 0, sum(total_usage), sum(event_count) FROM folded GROUP BY 1, 2, 3
ON CONFLICT (account_id, bucket, meter, shard)
DO UPDATE SET total_usage = r.total_usage + EXCLUDED.total_usage, event_count = r.event_count + EXCLUDED.event_count;

DROP FUNCTION usage_unfolded_entries(uuid);
DROP TABLE usage_fold_state;
ALTER TABLE usage_entries DROP COLUMN ingest_xid;
