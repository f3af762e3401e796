// Undoing the fold migration (an operator's rollback to the code before it) leaves the rollups holding every entry:
// that code reads the rollups alone, so the entries no fold had added yet are added by the down migration.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { foldUsageEntries, insertEventUsageEntries, type NewUsageEntry, type Pool } from '../src/index.js';
import { useMigrationSchema } from './migration-schema.js';

const { pool, migrateUntil, undoLast } = useMigrationSchema();
// 2026-01-01T00:00:00Z
const T0 = 1_767_225_600;

function entries(accountId: string, count: number, offset: number): NewUsageEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    accountId,
    meter: i % 2 ? 'order-completed' : 'workflow-email-sent',
    usage: 1 + (i % 3),
    extraInfo: null,
    // Across 30 hours, so both days and many hours get entries from both sides of the fold.
    occurredAt: T0 + ((offset + i) % 30) * 3600 + i,
    dedupeKey: `event:${randomUUID()}`,
    requestHash: null,
  }));
}

async function foldAll(db: Pool): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const outcome = await foldUsageEntries(db);
    if (outcome.result === 'idle') return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('entries still unfolded');
}

/** Per UTC hour or day and meter: the rollup's sums over its shards, and the sums of the entries themselves. */
async function compare(accountId: string, table: 'usage_rollups_hourly' | 'usage_rollups_daily') {
  const bucket = table === 'usage_rollups_hourly' ? `date_trunc('hour', occurred_at AT TIME ZONE 'UTC')` : `(occurred_at AT TIME ZONE 'UTC')::date`;
  const { rows: rollups } = await pool.query<{ bucket: string; meter: string; total: string; events: number }>(
    `SELECT bucket::text, meter, sum(total_usage)::text AS total, sum(event_count)::int AS events
       FROM ${table} WHERE account_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
    [accountId],
  );
  const { rows: fromEntries } = await pool.query<{ bucket: string; meter: string; total: string; events: number }>(
    `SELECT ${table === 'usage_rollups_hourly' ? `(${bucket} AT TIME ZONE 'UTC')::text` : `${bucket}::text`} AS bucket, meter,
            sum(usage)::text AS total, count(*)::int AS events
       FROM usage_entries WHERE account_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
    [accountId],
  );
  return { rollups, fromEntries };
}

describe('1763850000000_usage-rollup-fold, down', () => {
  it('adds the entries no fold had added to the rollups before dropping the fold state', async () => {
    // Up to this migration only, so the down below is its own whatever migrations come later.
    await migrateUntil(1763850000000);
    const accountId = randomUUID();
    await insertEventUsageEntries(pool, entries(accountId, 60, 0));
    await foldAll(pool);
    await insertEventUsageEntries(pool, entries(accountId, 45, 7));

    // Before: the last 45 entries are in no rollup yet (a summary adds them itself).
    const before = await compare(accountId, 'usage_rollups_daily');
    expect(before.rollups.reduce((n, r) => n + r.events, 0)).toBe(60);
    expect(before.fromEntries.reduce((n, r) => n + r.events, 0)).toBe(105);

    await undoLast();

    const columns = await pool.query(`SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'ingest_xid'`);
    expect(columns.rowCount).toBe(0);
    for (const table of ['usage_rollups_hourly', 'usage_rollups_daily'] as const) {
      const { rollups, fromEntries } = await compare(accountId, table);
      expect(rollups.length).toBeGreaterThan(2);
      expect(rollups).toEqual(fromEntries);
    }
  });
});
