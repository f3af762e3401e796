// PostgreSQL out of reach is a 503 `/unavailable` with Retry-After on the operator API, never a 500 (nor a 401 for a
// session or key that cannot be looked up): a signed-in console, an admin key, the CSV export, a change, signing in,
// readiness. The app reaches the test's database through a proxy that can cut and refuse connections.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@backbone/db';
import { closeQueues, openQueues, type EventQueues } from '@backbone/publisher';
import { createTestOperatorApp } from '@backbone/test-apps/operator-api';
import { expectUnavailable, request, startDatabaseProxy, useTestDatabase, useTestRedis, useTestServer, type DatabaseProxy } from '@backbone/testkit';
import { book, createOperator, createSlot, dayFromNow, PROBLEM_BASE, SessionClient, signedIn, type Operator } from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();
let proxy: DatabaseProxy;
let appPool: Pool;
let queues: EventQueues;
let operator: Operator;
let slotId: number;

beforeAll(async () => {
  proxy = await startDatabaseProxy(db.databaseUrl);
  appPool = createPool({ connectionString: proxy.url, schema: db.schema, max: 5, applicationName: `operator-unavailable-${randomBytes(4).toString('hex')}` });
  operator = await createOperator(db.pool);
  slotId = (await createSlot(db.pool, operator, dayFromNow(4), '10:00')).id;
  await book(db.pool, operator, { date: dayFromNow(4), time: '10:00' });
});
afterAll(async () => {
  await closeQueues(queues);
  await appPool.end();
  await proxy.close();
});

// A key verified once is trusted for a minute (AUTH_CACHE_TTL_MS): with the database gone, a known admin key's
// requests fail in the operations, a new key's in its look-up.
const server = useTestServer(() => {
  const connection = redis.connection();
  queues = openQueues(connection, redis.prefix);
  return createTestOperatorApp({ pool: appPool, redis: connection, redisUrl: redis.redisUrl, prefix: redis.prefix, queues, authCacheTtlMs: 60_000 });
});

describe('PostgreSQL out of reach: 503 with Retry-After', () => {
  it('nothing listens: a session, an admin key, the CSV export, a change, signing in, readiness; then it answers again', async () => {
    const BOOKINGS = '/api/v2/operator/bookings';
    const owner = await signedIn(server.url, operator.owner.email);
    expect((await request(server.url, 'GET', BOOKINGS, { key: operator.key })).status).toBe(200);
    const newKey = await operator.keyWith(['admin']);
    proxy.refuse();
    proxy.cut();
    try {
      for (const response of [
        await owner.send('GET', BOOKINGS),
        await owner.send('GET', '/api/v2/operator/session'),
        await owner.send('POST', `/api/v2/operator/timeslots/${slotId}/close`),
        await request(server.url, 'GET', BOOKINGS, { key: operator.key }),
        await request(server.url, 'GET', `${BOOKINGS}.csv`, { key: operator.key }),
        // Not 401: whether the key exists is not known.
        await request(server.url, 'GET', BOOKINGS, { key: newKey }),
        await new SessionClient(server.url).signIn(operator.staff.email),
        await request(server.url, 'GET', '/readyz'),
      ]) {
        expectUnavailable(response, PROBLEM_BASE);
      }
    } finally {
      await proxy.accept();
    }
    expect((await owner.send('GET', BOOKINGS)).body.Bookings).toHaveLength(1);
    const csv = await request(server.url, 'GET', `${BOOKINGS}.csv`, { key: newKey });
    expect(csv.status).toBe(200);
    expect(csv.text.trim().split('\r\n')).toHaveLength(2);
    const { rows } = await db.pool.query<{ status: string }>('SELECT status FROM timeslots WHERE id = $1', [slotId]);
    expect(rows[0]!.status).toBe('open');
  });
});
