// The fold of usage entries into the rollups (migration 1763850000000, usage-fold.repository.ts) on real PostgreSQL:
// summaries count every entry exactly once before, during and after folds, including while writers and folds race
// and while an older transaction keeps its entries uncommitted; folds add each entry to the rollups once.
import { afterEach, describe, expect, it } from 'vitest';
import {
  FOLD_LOCK_SQL,
  foldUsageEntries,
  insertUsageEntries,
  insertEventUsageEntries,
  sumUsageByDay,
  sumUsageOverPeriod,
  type NewUsageEntry,
  type Pool,
} from '@backbone/db';
import { dailyReadRanges, planUsageRead, type LocalDay, type UsageSumRow } from '@backbone/domain';
import { createTestAccount, foldAllUsage, useTestDatabase } from '@backbone/testkit';

const db = useTestDatabase();
const HOUR = 3600;
const DAY = 86_400;
// 2026-01-01T00:00:00Z
const T0 = 1_767_225_600;

function entry(accountId: string, occurredAt: number, overrides: Partial<NewUsageEntry> = {}): NewUsageEntry {
  return { accountId, meter: 'calls', usage: 1, extraInfo: null, occurredAt, dedupeKey: null, requestHash: null, ...overrides };
}

/** The period's sums read the plain way: every entry, one by one. */
async function sumsFromEntries(pool: Pool | { query: Pool['query'] }, accountId: string, from: number, to: number) {
  const { rows } = await pool.query<{ meter: string; total: string; events: number }>(
    `SELECT meter, sum(usage)::text AS total, count(*)::int AS events FROM usage_entries
      WHERE account_id = $1 AND occurred_at >= to_timestamp($2) AND occurred_at < to_timestamp($3)
      GROUP BY meter ORDER BY meter`,
    [accountId, from, to],
  );
  return rows;
}

const perMeter = (rows: readonly UsageSumRow[]) =>
  rows
    .filter((r) => r.day === null && r.meter !== null)
    .map((r) => ({ meter: r.meter!, total: r.totalUsage, events: r.eventCount }))
    .sort((a, b) => a.meter.localeCompare(b.meter));

/** Rollup totals per meter, over every bucket and shard, of one table. */
async function rollupTotals(accountId: string, table: 'usage_rollups_hourly' | 'usage_rollups_daily') {
  const { rows } = await db.pool.query<{ meter: string; total: string; events: number }>(
    `SELECT meter, sum(total_usage)::text AS total, sum(event_count)::int AS events FROM ${table} WHERE account_id = $1 GROUP BY meter ORDER BY meter`,
    [accountId],
  );
  return rows;
}

const openClients: Array<{ release(): void; query(text: string): Promise<unknown> }> = [];
afterEach(async () => {
  for (const client of openClients.splice(0)) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
});

describe('foldUsageEntries', () => {
  it('adds each entry to the hourly and daily rollups once, and summaries read the same sums before and after', async () => {
    const { account } = await createTestAccount(db.pool);
    // Two days and a half, entries at sub-hour offsets so that a period with minute edges reads all three sources.
    const entries = Array.from({ length: 240 }, (_, i) =>
      entry(account.id, T0 + i * 15 * 60 + 7, { meter: i % 3 === 0 ? 'sms' : 'calls', usage: i % 5 === 0 ? '0.1' : 2 }),
    );
    await insertUsageEntries(db.pool, entries.slice(0, 100));
    await insertEventUsageEntries(db.pool, entries.slice(100));
    const from = T0 + 20 * 60;
    const to = T0 + 2 * DAY + 10 * HOUR + 50 * 60;
    const expected = await sumsFromEntries(db.pool, account.id, from, to);
    expect(expected.length).toBe(2);
    const plan = planUsageRead(from, to);
    // The plan reads raw edges, hours and whole days.
    expect(plan.days.to - plan.days.from).toBe(DAY);
    // Kolkata's days (+05:30): each local day is raw half hours, hours and at most part of a UTC day.
    const days: LocalDay[] = [0, 1, 2].map((d) => ({ date: `2026-01-0${d + 1}`, start: T0 - 5.5 * HOUR + d * DAY, end: T0 - 5.5 * HOUR + (d + 1) * DAY }));
    const series = async () => (await sumUsageByDay(db.pool, account.id, dailyReadRanges(days))).filter((r) => r.meter !== null);

    const before = { period: perMeter(await sumUsageOverPeriod(db.pool, account.id, plan)), series: await series() };
    expect(before.period).toEqual(expected);
    expect(await rollupTotals(account.id, 'usage_rollups_daily')).toEqual([]);

    await foldAllUsage(db.pool);
    const all = await sumsFromEntries(db.pool, account.id, 0, T0 + 10 * DAY);
    expect(await rollupTotals(account.id, 'usage_rollups_hourly')).toEqual(all);
    expect(await rollupTotals(account.id, 'usage_rollups_daily')).toEqual(all);
    // Bucket by bucket: each UTC hour and day holds exactly its entries.
    const buckets = async (rollups: string, bucketOfEntry: string) => {
      const query = (sql: string) => db.pool.query(sql, [account.id]).then((r) => r.rows);
      const fromRollups = await query(
        `SELECT bucket::text, meter, sum(total_usage)::text AS t, sum(event_count)::int AS n FROM ${rollups} WHERE account_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      );
      const fromEntries = await query(
        `SELECT ${bucketOfEntry}::text AS bucket, meter, sum(usage)::text AS t, count(*)::int AS n FROM usage_entries WHERE account_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      );
      expect(fromRollups.length).toBeGreaterThan(2);
      expect(fromRollups).toEqual(fromEntries);
    };
    await buckets('usage_rollups_hourly', `date_trunc('hour', occurred_at, 'UTC')`);
    await buckets('usage_rollups_daily', `(occurred_at AT TIME ZONE 'UTC')::date`);
    expect(perMeter(await sumUsageOverPeriod(db.pool, account.id, plan))).toEqual(expected);
    expect(await series()).toEqual(before.series);
    // Folding again adds nothing.
    expect(await foldUsageEntries(db.pool)).toEqual({ result: 'idle' });
    expect(await rollupTotals(account.id, 'usage_rollups_daily')).toEqual(all);
  });

  it('waits for a transaction older than its boundary, and summaries count its entry once it commits (not before)', async () => {
    const { account } = await createTestAccount(db.pool);
    await foldAllUsage(db.pool);
    // An entry written first (the smaller id) and committed last.
    const slow = await db.pool.connect();
    openClients.push(slow);
    await slow.query('BEGIN');
    await insertUsageEntries(slow, [entry(account.id, T0 + 30, { usage: 100 })]);
    await insertUsageEntries(db.pool, [entry(account.id, T0 + 40, { usage: 1 })]);
    // Folds go on while it is open: the first takes the boundary observed before it began, then they wait.
    const results = [];
    for (let i = 0; i < 4; i++) results.push((await foldUsageEntries(db.pool)).result);
    expect(results.slice(-2)).toEqual(['waiting', 'waiting']);
    const plan = planUsageRead(T0, T0 + DAY);
    expect(perMeter(await sumUsageOverPeriod(db.pool, account.id, plan))).toEqual([{ meter: 'calls', total: '1', events: 1 }]);

    await slow.query('COMMIT');
    openClients.pop();
    slow.release();
    expect(perMeter(await sumUsageOverPeriod(db.pool, account.id, plan))).toEqual([{ meter: 'calls', total: '101', events: 2 }]);
    await foldAllUsage(db.pool);
    expect(await rollupTotals(account.id, 'usage_rollups_daily')).toEqual([{ meter: 'calls', total: '101', events: 2 }]);
    expect(perMeter(await sumUsageOverPeriod(db.pool, account.id, plan))).toEqual([{ meter: 'calls', total: '101', events: 2 }]);
  });

  it('never folds an entry of a transaction that rolled back', async () => {
    const { account } = await createTestAccount(db.pool);
    const gone = await db.pool.connect();
    openClients.push(gone);
    await gone.query('BEGIN');
    await insertUsageEntries(gone, [entry(account.id, T0, { usage: 5 })]);
    await insertUsageEntries(db.pool, [entry(account.id, T0, { usage: 1 })]);
    await gone.query('ROLLBACK');
    await foldAllUsage(db.pool);
    expect(await rollupTotals(account.id, 'usage_rollups_daily')).toEqual([{ meter: 'calls', total: '1', events: 1 }]);
  });

  it('leaves entries written before the fold existed (ingest_xid null, already in the rollups) to the rollups alone', async () => {
    const { account } = await createTestAccount(db.pool);
    // As the statement of an earlier version wrote it: the entry and its rollup rows together.
    await db.pool.query(
      `WITH e AS (INSERT INTO usage_entries (account_id, meter, usage, occurred_at) VALUES ($1, 'calls', 7, to_timestamp($2)) RETURNING *),
       h AS (INSERT INTO usage_rollups_hourly (account_id, bucket, meter, shard, total_usage, event_count)
             SELECT account_id, date_trunc('hour', occurred_at, 'UTC'), meter, 0, usage, 1 FROM e)
       INSERT INTO usage_rollups_daily (account_id, bucket, meter, shard, total_usage, event_count)
       SELECT account_id, (occurred_at AT TIME ZONE 'UTC')::date, meter, 0, usage, 1 FROM e`,
      [account.id, T0 + 60],
    );
    await insertUsageEntries(db.pool, [entry(account.id, T0 + 120, { usage: 3 })]);
    const plan = planUsageRead(T0, T0 + DAY);
    expect(perMeter(await sumUsageOverPeriod(db.pool, account.id, plan))).toEqual([{ meter: 'calls', total: '10', events: 2 }]);
    await foldAllUsage(db.pool);
    expect(await rollupTotals(account.id, 'usage_rollups_daily')).toEqual([{ meter: 'calls', total: '10', events: 2 }]);
    expect(perMeter(await sumUsageOverPeriod(db.pool, account.id, plan))).toEqual([{ meter: 'calls', total: '10', events: 2 }]);
  });

  it('one fold at a time: a second finds the lock taken and changes nothing', async () => {
    const holder = await db.pool.connect();
    openClients.push(holder);
    await holder.query('BEGIN');
    await holder.query(`SELECT ${FOLD_LOCK_SQL}`);
    expect(await foldUsageEntries(db.pool)).toEqual({ result: 'busy' });
  });

  it('racing writers, folds and summaries: every summary equals the entries in its own snapshot, and the rollups end equal to them', async () => {
    const { account } = await createTestAccount(db.pool);
    const from = T0 + 10 * 60;
    const to = T0 + 3 * DAY - 10 * 60;
    const plan = planUsageRead(from, to);
    let writing = true;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      let n = 0;
      while (writing) {
        const batch = Array.from({ length: 20 }, (_, i) =>
          entry(account.id, T0 + ((w * 7919 + n * 131 + i * 977) % (3 * DAY)), {
            meter: `m${i % 4}`,
            usage: (i % 7) + 0.5,
            dedupeKey: w % 2 ? `event:${w}-${n}-${i}` : null,
          }),
        );
        if (w % 2) await insertEventUsageEntries(db.pool, batch);
        else await insertUsageEntries(db.pool, batch);
        n += 1;
      }
      return n;
    });
    let folding = true;
    let folded = 0;
    const folder = (async () => {
      while (folding) {
        const outcome = await foldUsageEntries(db.pool);
        if (outcome.result === 'folded') folded += outcome.entries;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    let compared = 0;
    let comparedAfterFold = 0;
    let batches: number[];
    try {
      // At least 3 s of racing, and until ten summaries were compared after a fold, however slowly a busy machine runs.
      const racingUntil = Date.now() + 3000;
      const deadline = Date.now() + 120_000;
      while (Date.now() < racingUntil || comparedAfterFold < 10) {
        if (Date.now() > deadline) throw new Error(`${compared} summaries compared, ${comparedAfterFold} after a fold, in 120 s`);
        const foldedBefore = folded;
        // The summary and the plain sums in one snapshot.
        const client = await db.pool.connect();
        try {
          await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
          const summary = perMeter(await sumUsageOverPeriod(client, account.id, plan));
          const plain = await sumsFromEntries(client, account.id, from, to);
          await client.query('COMMIT');
          expect(summary).toEqual(plain);
          compared += 1;
          if (foldedBefore > 0) comparedAfterFold += 1;
        } finally {
          client.release();
        }
      }
    } finally {
      writing = false;
      folding = false;
      batches = await Promise.all(writers);
      await folder;
    }
    await foldAllUsage(db.pool);
    const all = await sumsFromEntries(db.pool, account.id, 0, T0 + 10 * DAY);
    expect(all.reduce((sum, r) => sum + r.events, 0)).toBe(batches.reduce((sum, n) => sum + n * 20, 0));
    expect(await rollupTotals(account.id, 'usage_rollups_hourly')).toEqual(all);
    expect(await rollupTotals(account.id, 'usage_rollups_daily')).toEqual(all);
    expect(perMeter(await sumUsageOverPeriod(db.pool, account.id, plan))).toEqual(await sumsFromEntries(db.pool, account.id, from, to));
  });
});
