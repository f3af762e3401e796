// The fold: adds the usage entries written since the last fold to the hourly and daily rollups, in one statement that
// also moves the fold state on, so a summary (which adds the unfolded entries itself, usage_unfolded_entries) counts
// every entry exactly once whichever side of a fold it reads. The rules of the state are in migration 1763850000000.
// Folds may be attempted from any number of processes: one runs at a time, the others find the lock taken and skip.
import type { Pool } from './pool.js';

/**
 * Rollup rows per (bucket, meter): a connection always adds to the same shard (its backend pid modulo this), so
 * writers on several connections mostly lock different rows, and a summary reads at most this many rows per bucket
 * and meter.
 */
export const ROLLUP_SHARDS = 4;

// The fold's advisory lock: one per schema (stacks side by side in one database each fold their own), so a fold that
// finds it taken leaves the work to the one holding it.
export const FOLD_LOCK_SQL = `pg_try_advisory_xact_lock(hashtext('usage-fold'), hashtext(current_schema()))`;

export type FoldOutcome =
  /** Entries (possibly none) were added to the rollups and the state moved on. */
  | { result: 'folded'; entries: number }
  /** No entry was written since the last fold. */
  | { result: 'idle' }
  /** A transaction older than the pending boundary is still running: its entries may still commit below it. */
  | { result: 'waiting' }
  /** Another fold holds the lock. */
  | { result: 'busy' };

interface StateRow {
  locked: boolean;
  folded_xid: number;
  folded_id: number;
  pending_xid: number;
  pending_id: number;
  last_id: number;
}

/**
 * One fold. Reads the state and the id sequence, then takes a transaction id (the sequence value and the id after
 * this one become the new pending boundary); if no transaction older than the pending boundary is still running, adds
 * the entries below it to the rollups and takes it as the folded boundary.
 */
export async function foldUsageEntries(pool: Pool): Promise<FoldOutcome> {
  const client = await pool.connect();
  let open = false;
  let failure: Error | undefined;
  try {
    // The fold's scan is the end of the primary key, whatever the statistics of the table say (see migration
    // 1763850000000's usage_unfolded_entries): never a scan of the whole table, no parallel workers to start, no JIT.
    // And its sums are a hash aggregate: the groups (accounts, hours, meters) are few whatever the number of entries,
    // but with no useful statistics the planner guesses few entries and sorts them, on disk for a backlog of millions.
    await client.query(
      'BEGIN; SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off; SET LOCAL max_parallel_workers_per_gather = 0; SET LOCAL jit = off',
    );
    open = true;
    const state = (
      await client.query<StateRow>(
        `SELECT ${FOLD_LOCK_SQL} AS locked, folded_xid, folded_id, pending_xid, pending_id,
                COALESCE(pg_sequence_last_value(pg_get_serial_sequence('usage_entries', 'id')::regclass), 0) AS last_id
           FROM usage_fold_state`,
      )
    ).rows[0]!;
    if (!state.locked) return { result: 'busy' };
    if (state.last_id === state.pending_id && state.folded_id === state.pending_id) return { result: 'idle' };
    // The horizon: every transaction below it has ended. The next boundary: this transaction's own id, taken after the
    // sequence was read above, so every transaction with a greater id got it later and draws entry ids above last_id.
    // (Not the snapshot's xmax: that is the latest completed id plus one, and running transactions may be above it.)
    const { horizon, own_xid } = (
      await client.query<{ horizon: number; own_xid: number }>(
        `SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS horizon, pg_current_xact_id()::text::bigint AS own_xid`,
      )
    ).rows[0]!;
    if (horizon < state.pending_xid) return { result: 'waiting' };
    // Unnamed statement: planned with these bounds, so the scan is a primary key range over the end of the table.
    const { rows } = await client.query<{ entries: number }>(
      // One pass over the entries: their sums per UTC hour (date_bin: arithmetic, where date_trunc with a zone
      // converts every row), and the days from those hours' sums, a few hundred rows.
      `WITH folded AS MATERIALIZED (
         SELECT account_id, date_bin('1 hour', occurred_at, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS hour, meter,
                sum(usage) AS total_usage, count(*) AS event_count
           FROM usage_entries
          WHERE id > $1 AND ingest_xid >= $2 AND ingest_xid < $3
          GROUP BY 1, 2, 3
       ),
       hourly AS (
         INSERT INTO usage_rollups_hourly AS r (account_id, bucket, meter, shard, total_usage, event_count)
         SELECT account_id, hour, meter, pg_backend_pid() % ${ROLLUP_SHARDS}, total_usage, event_count
           FROM folded ORDER BY 1, 2, 3
         ON CONFLICT (account_id, bucket, meter, shard)
         DO UPDATE SET total_usage = r.total_usage + EXCLUDED.total_usage, event_count = r.event_count + EXCLUDED.event_count
       ),
       daily AS (
         INSERT INTO usage_rollups_daily AS r (account_id, bucket, meter, shard, total_usage, event_count)
         SELECT account_id, (hour AT TIME ZONE 'UTC')::date, meter, pg_backend_pid() % ${ROLLUP_SHARDS}, sum(total_usage), sum(event_count)
           FROM folded GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
         ON CONFLICT (account_id, bucket, meter, shard)
         DO UPDATE SET total_usage = r.total_usage + EXCLUDED.total_usage, event_count = r.event_count + EXCLUDED.event_count
       )
       UPDATE usage_fold_state
          SET folded_xid = $3, folded_id = $4, pending_xid = $5, pending_id = $6, folded_at = now()
       RETURNING (SELECT COALESCE(sum(event_count), 0) FROM folded)::int AS entries`,
      [state.folded_id, state.folded_xid, state.pending_xid, state.pending_id, own_xid + 1, state.last_id],
    );
    await client.query('COMMIT');
    open = false;
    return { result: 'folded', entries: rows[0]!.entries };
  } catch (error) {
    failure = error as Error;
    throw error;
  } finally {
    if (open && !failure) {
      await client.query('ROLLBACK').catch((error: Error) => {
        failure = error;
      });
    }
    // After a failure the connection is not reused: it may be in an aborted transaction, or gone.
    client.release(failure);
  }
}
