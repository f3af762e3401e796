import { describe, expect, it } from 'vitest';
import { createEventEntryWriter, insertUsageEntries, insertEventUsageEntries, type NewUsageEntry } from '@backbone/db';
import { createTestAccount, foldAllUsage, useTestDatabase } from '@backbone/testkit';

const db = useTestDatabase();

function entry(accountId: string, overrides: Partial<NewUsageEntry> = {}): NewUsageEntry {
  return { accountId, meter: 'api-calls', usage: 1, extraInfo: null, occurredAt: 1_767_225_600, dedupeKey: null, requestHash: null, ...overrides };
}

/** Once folded, the hourly and the daily rollups both hold these totals per meter (over every shard). */
async function expectRollups(accountId: string, totals: Array<{ meter: string; t: string; n: number }>): Promise<void> {
  await foldAllUsage(db.pool);
  for (const table of ['usage_rollups_hourly', 'usage_rollups_daily']) {
    const { rows } = await db.pool.query(
      `SELECT meter, sum(total_usage)::text AS t, sum(event_count)::int AS n FROM ${table} WHERE account_id = $1 GROUP BY meter ORDER BY meter`,
      [accountId],
    );
    expect(rows, table).toEqual(totals);
  }
}

describe('insertUsageEntries', () => {
  it('stores entries in input order and keeps the rollups equal to the entries', async () => {
    const { account } = await createTestAccount(db.pool);
    const outcomes = await insertUsageEntries(db.pool, [
      entry(account.id, { usage: '0.1' }),
      entry(account.id, { usage: '0.2' }),
      entry(account.id, { usage: '0.1' }),
      entry(account.id, { meter: 'sms', usage: 3, occurredAt: 1_767_225_600 + 7200 }),
    ]);
    expect(outcomes.map((o) => o.created)).toEqual([true, true, true, true]);
    expect(outcomes.map((o) => (o.created ? o.entry.usage : ''))).toEqual(['0.1', '0.2', '0.1', '3']);
    const ids = outcomes.map((o) => (o.created ? o.entry.id : 0));
    expect(new Set(ids).size).toBe(4);
    await expectRollups(account.id, [
      { meter: 'api-calls', t: '0.4', n: 3 },
      { meter: 'sms', t: '3', n: 1 },
    ]);
  });

  it('counts a dedupe key once, within a batch and across batches', async () => {
    const { account } = await createTestAccount(db.pool);
    const first = await insertUsageEntries(db.pool, [entry(account.id, { dedupeKey: 'event:a' }), entry(account.id, { dedupeKey: 'event:a' })]);
    expect(first[0]!.created).toBe(true);
    // The second holder of the key in one statement met an entry that was not committed yet: concurrent.
    expect(first[1]).toMatchObject({ created: false, existing: { id: first[0]!.created ? first[0]!.entry.id : -1 }, concurrent: true });
    const again = await Promise.all([1, 2, 3].map(() => insertUsageEntries(db.pool, [entry(account.id, { dedupeKey: 'event:a' })])));
    // Later statements found it committed.
    expect(again.map((o) => o[0])).toEqual(Array(3).fill(expect.objectContaining({ created: false, concurrent: false })));
    await foldAllUsage(db.pool);
    const count = await db.pool.query(
      `SELECT count(*)::int AS n, sum(event_count)::int AS r FROM usage_entries e, usage_rollups_daily d WHERE e.account_id = $1 AND d.account_id = $1`,
      [account.id],
    );
    expect(count.rows[0]).toEqual({ n: 1, r: 1 });
  });
});

describe('insertEventUsageEntries', () => {
  it('stores what insertUsageEntries stores and answers only whether each entry was stored', async () => {
    const { account } = await createTestAccount(db.pool);
    await insertUsageEntries(db.pool, [entry(account.id, { dedupeKey: 'event:held' })]);
    const stored = await insertEventUsageEntries(db.pool, [
      // The account id as a client may spell it; PostgreSQL's uuid reads it as the lower-case one.
      entry(account.id.toUpperCase(), { dedupeKey: 'event:a', usage: '0.5' }),
      entry(account.id, { dedupeKey: 'event:a', usage: 7 }),
      entry(account.id, { dedupeKey: 'event:held', usage: 7 }),
      entry(account.id, { dedupeKey: null, meter: 'sms', usage: 2, occurredAt: 1_767_225_600 + 7200 }),
      entry(account.id, { dedupeKey: 'event:b', meter: 'sms' }),
    ]);
    expect(stored).toEqual([true, false, false, true, true]);
    const entries = await db.pool.query(`SELECT dedupe_key, usage::text AS usage FROM usage_entries WHERE account_id = $1 ORDER BY id`, [account.id]);
    expect(entries.rows).toEqual([
      { dedupe_key: 'event:held', usage: '1' },
      { dedupe_key: 'event:a', usage: '0.5' },
      { dedupe_key: null, usage: '2' },
      { dedupe_key: 'event:b', usage: '1' },
    ]);
    await expectRollups(account.id, [
      { meter: 'api-calls', t: '1.5', n: 2 },
      { meter: 'sms', t: '3', n: 2 },
    ]);
  });

  it('answers false for every entry of a batch whose keys are all held, and stores none of them', async () => {
    const { account } = await createTestAccount(db.pool);
    await insertEventUsageEntries(db.pool, [entry(account.id, { dedupeKey: 'event:x' }), entry(account.id, { dedupeKey: 'event:y' })]);
    const again = await insertEventUsageEntries(db.pool, [
      entry(account.id, { dedupeKey: 'event:y', usage: 9 }),
      entry(account.id, { dedupeKey: 'event:x', usage: 9 }),
    ]);
    expect(again).toEqual([false, false]);
    const stored = await db.pool.query(`SELECT count(*)::int AS n, sum(usage)::text AS s FROM usage_entries WHERE account_id = $1`, [account.id]);
    expect(stored.rows[0]).toEqual({ n: 2, s: '2' });
  });

  it('lets one of several concurrent statements with a key store it', async () => {
    const { account } = await createTestAccount(db.pool);
    const writer = createEventEntryWriter(db.pool, { maxBatchSize: 7, maxConcurrentBatches: 4 });
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => writer.write(entry(account.id, { dedupeKey: `event:${i % 20}` }))));
    expect(answers.filter(Boolean)).toHaveLength(20);
    const stored = await db.pool.query(`SELECT count(*)::int AS n, count(DISTINCT dedupe_key)::int AS k FROM usage_entries WHERE account_id = $1`, [
      account.id,
    ]);
    expect(stored.rows[0]).toEqual({ n: 20, k: 20 });
    await foldAllUsage(db.pool);
    const rollup = await db.pool.query(`SELECT sum(event_count)::int AS n FROM usage_rollups_daily WHERE account_id = $1`, [account.id]);
    expect(rollup.rows[0]).toEqual({ n: 20 });
  });
});

describe('createUsageWriter', () => {
  it('writes concurrent entries in shared batches, each answered with its own row', async () => {
    const { createUsageWriter } = await import('@backbone/db');
    const { account } = await createTestAccount(db.pool);
    const writer = createUsageWriter(db.pool, { maxBatchSize: 50 });
    const outcomes = await Promise.all(Array.from({ length: 300 }, (_, i) => writer.write(entry(account.id, { usage: i + 1, meter: `m${i % 3}` }))));
    expect(outcomes.map((o) => (o.created ? Number(o.entry.usage) : 0))).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    const stored = await db.pool.query(`SELECT count(*)::int AS n, sum(usage)::text AS s FROM usage_entries WHERE account_id = $1`, [account.id]);
    expect(stored.rows[0]).toEqual({ n: 300, s: String((300 * 301) / 2) });
    await writer.drain();
  });
});
