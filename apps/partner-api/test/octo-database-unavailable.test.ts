// A lost database on /octo: OCTO's INTERNAL_SERVER_ERROR form with 503 and Retry-After (send it again), never
// problem+json and never a 500; once the database is back the same reservation goes through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@backbone/db';
import {
  createTestTimeslot,
  futureDate,
  request,
  startDatabaseProxy,
  useTestDatabase,
  useTestServer,
  type DatabaseProxy,
  type TestTimeslot,
} from '@backbone/testkit';
import { createOperator, createTestPartnerApp, type Operator } from './support.js';

const db = useTestDatabase();
let proxy: DatabaseProxy;
let appPool: Pool;
let op: Operator;
let slot: TestTimeslot;

beforeAll(async () => {
  proxy = await startDatabaseProxy(db.databaseUrl);
  appPool = createPool({ connectionString: proxy.url, schema: db.schema, max: 5, applicationName: 'octo-unavailable' });
  op = await createOperator(db.pool);
  slot = await createTestTimeslot(db.pool, op.activity, { date: futureDate(6, op.activity.timeZone), time: '10:00', capacity: 10 });
});
afterAll(async () => {
  await appPool.end();
  await proxy.close();
});

// A key verified once is trusted for a minute (AUTH_CACHE_TTL_MS), so the outage shows in the use cases.
const server = useTestServer(() => createTestPartnerApp(appPool, { authCacheTtlMs: 60_000 }));

describe('OCTO with the database out of reach', () => {
  it('answers 503 INTERNAL_SERVER_ERROR with Retry-After, then books once the database is back', async () => {
    const found = await request(server.url, 'POST', '/octo/availability', {
      key: op.ota,
      body: { productId: op.activity.activityId, optionId: 'DEFAULT', localDate: slot.date },
    });
    const availabilityId = found.body[0].id as string;
    const body = { uuid: crypto.randomUUID(), productId: op.activity.activityId, optionId: 'DEFAULT', availabilityId, unitItems: [{ unitId: 'adult' }] };
    proxy.refuse();
    proxy.cut();
    try {
      for (const [method, path, sent] of [
        ['POST', '/octo/bookings', body],
        ['GET', '/octo/products', undefined],
        ['POST', '/octo/availability', { productId: op.activity.activityId, optionId: 'DEFAULT', availabilityIds: [availabilityId] }],
      ] as const) {
        const res = await request(server.url, method, path, { key: op.ota, ...(sent ? { body: sent } : {}) });
        expect(res.status, `${method} ${path}: ${res.text}`).toBe(503);
        expect(res.headers.get('retry-after')).toBe('2');
        expect(res.body).toEqual({ error: 'INTERNAL_SERVER_ERROR', errorMessage: expect.any(String) });
      }
    } finally {
      await proxy.accept();
    }
    const retried = await request(server.url, 'POST', '/octo/bookings', { key: op.ota, body });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ uuid: body.uuid, status: 'ON_HOLD' });
    const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM bookings WHERE octo_uuid = $1`, [body.uuid]);
    expect(rows[0]!.n).toBe(1);
  });
});
