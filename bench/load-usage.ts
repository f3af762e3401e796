// The data generator for the summary benchmark: 10,000,000 usage entries of one account across 20 meters over
// 13 months, loaded in minutes by INSERT ... SELECT generate_series in chunks of 500,000. Each chunk writes its
// entries and adds them to the hourly and daily rollups in one statement, with exactly the buckets and sums
// insertUsageEntries (packages/db/src/usage.repository.ts) maintains, so the data is what the API would have
// written: rollup rows spread over the ROLLUP_SHARDS shards (by entry id here; by connection in the API), as many
// concurrent writers leave them, so a summary reads as many rows as it would in production. A complete load is kept
// and skipped on the next run (its rollups rebuilt once if an older loader put them all in one shard); an incomplete
// one is deleted and done again.
//
// Standalone: DATABASE_URL=postgres://.../backbone_bench npx tsx bench/load-usage.ts
import { pathToFileURL } from 'node:url';
import { createPool, migrate, ROLLUP_SHARDS, type Pool } from '@backbone/db';

export interface UsageLoadOptions {
  accountId: string;
  total: number;
  meters: number;
  /** First instant of the data, Unix seconds (UTC). */
  fromEpoch: number;
  /** End of the data (exclusive), Unix seconds. */
  toEpoch: number;
  chunkSize: number;
  log: (message: string) => void;
}

/** 2024-10-01T00:00:00Z to 2025-11-01T00:00:00Z: 13 months, 396 days. */
export const SUMMARY_DATA = { fromEpoch: Date.UTC(2024, 9, 1) / 1000, toEpoch: Date.UTC(2025, 10, 1) / 1000 } as const;

async function storedCount(pool: Pool, accountId: string): Promise<number> {
  const { rows } = await pool.query<{ n: string | null }>('SELECT sum(event_count) AS n FROM usage_rollups_daily WHERE account_id = $1', [accountId]);
  return Number(rows[0]?.n ?? 0);
}

/** Rebuilds the account's rollups from its entries, spread over the shards, when they all sit in one shard. */
async function spreadRollupShards(pool: Pool, accountId: string, log: (message: string) => void): Promise<void> {
  const { rows } = await pool.query<{ shards: number }>('SELECT count(DISTINCT shard)::int AS shards FROM usage_rollups_daily WHERE account_id = $1', [
    accountId,
  ]);
  if (rows[0]!.shards > 1) return;
  log(`rollups of the summary account sit in one shard: rebuilding them over ${ROLLUP_SHARDS} shards from the entries`);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('DELETE FROM usage_rollups_hourly WHERE account_id = $1', [accountId]);
    await client.query('DELETE FROM usage_rollups_daily WHERE account_id = $1', [accountId]);
    await client.query(
      `INSERT INTO usage_rollups_hourly (account_id, bucket, meter, shard, total_usage, event_count)
       SELECT account_id, date_trunc('hour', occurred_at, 'UTC'), meter, id % $2, sum(usage), count(*)
         FROM usage_entries WHERE account_id = $1 GROUP BY 1, 2, 3, 4`,
      [accountId, ROLLUP_SHARDS],
    );
    await client.query(
      `INSERT INTO usage_rollups_daily (account_id, bucket, meter, shard, total_usage, event_count)
       SELECT account_id, (occurred_at AT TIME ZONE 'UTC')::date, meter, id % $2, sum(usage), count(*)
         FROM usage_entries WHERE account_id = $1 GROUP BY 1, 2, 3, 4`,
      [accountId, ROLLUP_SHARDS],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  for (const table of ['usage_rollups_hourly', 'usage_rollups_daily']) await pool.query(`VACUUM (ANALYZE) ${table}`);
}

/** Loads what is missing; returns whether anything was written. */
export async function ensureUsageLoaded(pool: Pool, options: UsageLoadOptions): Promise<{ loaded: boolean; seconds: number }> {
  const { accountId, total, meters, fromEpoch, toEpoch, chunkSize, log } = options;
  let done = await storedCount(pool, accountId);
  if (done === total) {
    log(`summary account already holds ${total.toLocaleString('en-US')} entries: skipping the load`);
    await spreadRollupShards(pool, accountId, log);
    return { loaded: false, seconds: 0 };
  }
  if (done !== 0) {
    // An interrupted or differently sized load: its rows' times do not match this one's, so start again.
    log(`summary account holds ${done.toLocaleString('en-US')} entries, not ${total.toLocaleString('en-US')}: deleting them and reloading`);
    for (const table of ['usage_entries', 'usage_rollups_hourly', 'usage_rollups_daily'])
      await pool.query(`DELETE FROM ${table} WHERE account_id = $1`, [accountId]);
    done = 0;
  }
  const started = Date.now();
  log(`loading ${total.toLocaleString('en-US')} usage entries in chunks of ${chunkSize.toLocaleString('en-US')}`);
  const span = toEpoch - fromEpoch;
  while (done < total) {
    const upTo = Math.min(total, done + chunkSize);
    // Entry i: meter i % meters, usage 0.01..10.00 (two decimals, exact in numeric), time spread evenly over the span.
    await pool.query(
      `WITH inserted AS (
         INSERT INTO usage_entries (account_id, meter, usage, occurred_at)
         SELECT $1::uuid, 'meter-' || lpad((1 + i % $4)::text, 2, '0'), ((1 + (i * 37) % 1000)::numeric / 100),
                to_timestamp($5::bigint + (i::bigint * $6::bigint) / $7::bigint)
           FROM generate_series($2::bigint, $3::bigint - 1) AS i
         RETURNING id, account_id, meter, usage, occurred_at
       ),
       hourly AS (
         INSERT INTO usage_rollups_hourly AS r (account_id, bucket, meter, shard, total_usage, event_count)
         SELECT account_id, date_trunc('hour', occurred_at, 'UTC'), meter, id % $8, sum(usage), count(*)
           FROM inserted GROUP BY 1, 2, 3, 4
         ON CONFLICT (account_id, bucket, meter, shard)
         DO UPDATE SET total_usage = r.total_usage + EXCLUDED.total_usage, event_count = r.event_count + EXCLUDED.event_count
       )
       INSERT INTO usage_rollups_daily AS r (account_id, bucket, meter, shard, total_usage, event_count)
       SELECT account_id, (occurred_at AT TIME ZONE 'UTC')::date, meter, id % $8, sum(usage), count(*)
         FROM inserted GROUP BY 1, 2, 3, 4
       ON CONFLICT (account_id, bucket, meter, shard)
       DO UPDATE SET total_usage = r.total_usage + EXCLUDED.total_usage, event_count = r.event_count + EXCLUDED.event_count`,
      [accountId, done, upTo, meters, fromEpoch, span, total, ROLLUP_SHARDS],
    );
    done = upTo;
    const seconds = (Date.now() - started) / 1000;
    const rate = done / seconds;
    const eta = (total - done) / rate;
    log(
      `${done.toLocaleString('en-US').padStart(10)} / ${total.toLocaleString('en-US')} (${((100 * done) / total).toFixed(0)}%)  ` +
        `${seconds.toFixed(0)} s, ${Math.round(rate).toLocaleString('en-US')} rows/s, ETA ${eta.toFixed(0)} s`,
    );
  }
  log('VACUUM ANALYZE (visibility map for index-only scans, fresh statistics)');
  for (const table of ['usage_entries', 'usage_rollups_hourly', 'usage_rollups_daily']) await pool.query(`VACUUM (ANALYZE) ${table}`);
  const seconds = (Date.now() - started) / 1000;
  log(`loaded in ${seconds.toFixed(0)} s`);
  return { loaded: true, seconds };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error('Set DATABASE_URL to the bench database (npm run bench creates backbone_bench).');
    process.exit(1);
  }
  const { SUMMARY_ACCOUNT_ID } = await import('./lib/fixtures.js');
  await migrate({ databaseUrl });
  const pool = createPool({ connectionString: databaseUrl, max: 2, applicationName: 'bench-load-usage' });
  await pool.query(`INSERT INTO accounts (id, name, time_zone) VALUES ($1, 'bench summary account', 'UTC') ON CONFLICT (id) DO NOTHING`, [SUMMARY_ACCOUNT_ID]);
  await ensureUsageLoaded(pool, {
    accountId: SUMMARY_ACCOUNT_ID,
    total: Number(process.env.BENCH_USAGE_ENTRIES ?? 10_000_000),
    meters: 20,
    ...SUMMARY_DATA,
    chunkSize: 500_000,
    log: (message) => console.log(`[load-usage] ${message}`),
  });
  await pool.end();
}
