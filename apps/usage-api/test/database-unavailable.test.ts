// PostgreSQL out of reach is a 503 `/unavailable` with Retry-After on the usage API, never a 500: the single POST
// (whose entries go through the group-commit writer), the batch, the summary, a key's look-up and readiness. An
// entry whose write lost its connection is not stored, and the same Idempotency-Key stores it once afterwards.
// The app reaches the test's database through a proxy that can cut and refuse connections.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, createUsageWriter, type Pool, type UsageWriter } from '@backbone/db';
import { createEventPublisher, type EventPublisher } from '@backbone/publisher';
import { expectUnavailable, request, startDatabaseProxy, useTestDatabase, useTestRedis, useTestServer, waitFor, type DatabaseProxy } from '@backbone/testkit';
import { countEntries, createTestUsageApp, createUsageClient, PROBLEM_BASE, type UsageClient } from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();
const applicationName = `usage-unavailable-${randomBytes(4).toString('hex')}`;
const METERS = '/api/v2/usage/meters';
let proxy: DatabaseProxy;
let appPool: Pool;
let usageWriter: UsageWriter;
let publisher: EventPublisher;
let client: UsageClient;

beforeAll(async () => {
  proxy = await startDatabaseProxy(db.databaseUrl);
  appPool = createPool({ connectionString: proxy.url, schema: db.schema, max: 5, applicationName });
  client = await createUsageClient(db.pool);
});
afterAll(async () => {
  await usageWriter.drain();
  await publisher.close();
  await appPool.end();
  await proxy.close();
});

// A key verified once is trusted for a minute (AUTH_CACHE_TTL_MS): with the database gone, a known key's entries
// fail in the writer, and a new key fails in its look-up.
const server = useTestServer(() => {
  const connection = redis.connection();
  publisher = createEventPublisher({ connection, prefix: redis.prefix });
  usageWriter = createUsageWriter(appPool);
  return createTestUsageApp({ pool: appPool, usageWriter, publisher, redisReady: async () => (await connection.ping()) === 'PONG', authCacheTtlMs: 60_000 });
});

const post = (body: unknown, idempotencyKey?: string, key = client.key) =>
  request(server.url, 'POST', METERS, { key, body, headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {} });

describe('PostgreSQL out of reach: 503 with Retry-After', () => {
  it('nothing listens: entries, a batch, a summary, a new key, readiness; then it answers again', async () => {
    expect((await post({ Meter: 'api-calls', Usage: 1 })).status).toBe(201);
    const newKey = await client.keyWith(['usage:write']);
    const before = await countEntries(db.pool, client.account.id);
    proxy.refuse();
    proxy.cut();
    // A write sent on a connection whose end the app has not yet noticed could have reached a server: its outcome would
    // be unknown (503 /outcome-unknown). Once the pool has dropped them, nothing listens and nothing can be sent.
    await waitFor('the app pool dropped its cut connections', async () => appPool.idleCount === 0);
    try {
      for (const response of [
        await post({ Meter: 'api-calls', Usage: 1 }),
        await post({ Meter: 'api-calls', Usage: 1 }, `usage-${randomBytes(6).toString('hex')}`),
        await request(server.url, 'POST', `${METERS}/batch`, {
          key: client.key,
          body: {
            Entries: [
              { Meter: 'api-calls', Usage: 1 },
              { Meter: 'api-calls', Usage: 2 },
            ],
          },
        }),
        await request(server.url, 'GET', `${METERS}?from=2026-01-01&to=2026-01-31`, { key: client.key }),
        // Not 401: whether the key exists is not known.
        await post({ Meter: 'api-calls', Usage: 1 }, undefined, newKey),
        await request(server.url, 'GET', '/readyz'),
      ]) {
        expectUnavailable(response, PROBLEM_BASE);
      }
    } finally {
      await proxy.accept();
    }
    expect(await countEntries(db.pool, client.account.id)).toBe(before);
    expect((await post({ Meter: 'api-calls', Usage: 1 }, undefined, newKey)).status).toBe(201);
  });

  it('the server ends the connection of a write (57P01): nothing stored, and the same Idempotency-Key stores the entry once after', async () => {
    const key = `usage-${randomBytes(6).toString('hex')}`;
    const before = await countEntries(db.pool, client.account.id);
    // The writer's INSERT waits for this transaction's lock on the table.
    const holder = await db.pool.connect();
    let answer;
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE usage_entries IN SHARE MODE');
      const pending = post({ Meter: 'api-calls', Usage: 3 }, key);
      let pid = 0;
      await waitFor('the writer waiting on the lock', async () => {
        const { rows } = await db.pool.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`, [
          applicationName,
        ]);
        pid = rows[0]?.pid ?? 0;
        return rows.length === 1;
      });
      await db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
      answer = await pending;
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    expectUnavailable(answer, PROBLEM_BASE);
    expect(await countEntries(db.pool, client.account.id)).toBe(before);
    const retry = await post({ Meter: 'api-calls', Usage: 3 }, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect((await post({ Meter: 'api-calls', Usage: 3 }, key)).headers.get('idempotent-replayed')).toBe('true');
    expect(await countEntries(db.pool, client.account.id)).toBe(before + 1);
  });
});
