// PostgreSQL out of reach is a 503 `/unavailable` with Retry-After, never a 500, whichever way it fails: nothing
// listens, the server refuses the connection (starting up, in recovery, full), or it ends or loses the connection in
// the middle of a booking. Nothing half-done stays behind: a booking that failed so wrote nothing, and its
// Idempotency-Key books once the database is back, also when the database was still away as the request failed.
// The app reaches the test's database through a proxy that can cut and refuse connections.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@backbone/db';
import {
  createTestTimeslot,
  expectUnavailable,
  futureDate,
  request,
  serveTestApp,
  startDatabaseProxy,
  startFailingPostgres,
  useTestDatabase,
  useTestServer,
  waitFor,
  type DatabaseProxy,
  type TestTimeslot,
} from '@backbone/testkit';
import { bookingBody, createOperator, createTestPartnerApp, databaseFingerprint, PROBLEM_BASE, type Operator } from './support.js';

const db = useTestDatabase();
const applicationName = `partner-unavailable-${randomBytes(4).toString('hex')}`;
let proxy: DatabaseProxy;
let appPool: Pool;
let op: Operator;
let slot: TestTimeslot;

beforeAll(async () => {
  proxy = await startDatabaseProxy(db.databaseUrl);
  appPool = createPool({ connectionString: proxy.url, schema: db.schema, max: 5, applicationName });
  op = await createOperator(db.pool);
  slot = await createTestTimeslot(db.pool, op.activity, { date: futureDate(6, op.activity.timeZone), time: '10:00', capacity: 50 });
});
afterAll(async () => {
  await appPool.end();
  await proxy.close();
});

// A key verified once is trusted for a minute, as AUTH_CACHE_TTL_MS does in production (5 s): with the database
// gone, a known key's requests fail further on, in the use cases, and a new key's in its look-up.
const server = useTestServer(() => createTestPartnerApp(appPool, { authCacheTtlMs: 60_000 }));

const BOOKING = '/api/v2/ota/partner/booking';
const book = (idempotencyKey?: string, key = op.ota) =>
  request(server.url, 'POST', BOOKING, { key, body: bookingBody(op.activity, slot), headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {} });
const newKey = () => `outage-${randomBytes(6).toString('hex')}`;

/** Holds the timeslot's row lock in a transaction of its own, so that a booking's statement waits for it. */
async function lockTimeslot() {
  const client = await db.pool.connect();
  await client.query('BEGIN');
  await client.query('SELECT 1 FROM timeslots WHERE id = $1 FOR UPDATE', [slot.id]);
  return {
    async release() {
      await client.query('ROLLBACK');
      client.release();
    },
  };
}

/** The pid of the app's backend once it waits on a lock. */
async function appBackendWaitingOnLock(): Promise<number> {
  let pid = 0;
  await waitFor('the app waiting on the timeslot lock', async () => {
    const { rows } = await db.pool.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`, [
      applicationName,
    ]);
    pid = rows[0]?.pid ?? 0;
    return rows.length === 1;
  });
  return pid;
}

describe('PostgreSQL out of reach: 503 with Retry-After', () => {
  it('nothing listens: reads, bookings with and without Idempotency-Key, a new key, readiness; then it answers again', async () => {
    const products = '/api/v2/ota/partner/products';
    expect((await request(server.url, 'GET', products, { key: op.ota })).status).toBe(200);
    const newPartnerKey = await op.keyWith(['ota']);
    proxy.refuse();
    proxy.cut();
    try {
      for (const response of [
        await request(server.url, 'GET', products, { key: op.ota }),
        await request(server.url, 'GET', `/api/v2/ota/partner/availability/${op.activity.activityId}/timeslots?Date=${slot.date}`, { key: op.ota }),
        await book(),
        await book(newKey()),
        await request(server.url, 'GET', `${BOOKING}/7KQ4-X9MB`, { key: op.ota }),
        // Not 401: whether the key exists is not known.
        await request(server.url, 'GET', products, { key: newPartnerKey }),
        await request(server.url, 'GET', '/readyz'),
      ]) {
        expectUnavailable(response, PROBLEM_BASE);
      }
    } finally {
      await proxy.accept();
    }
    expect((await book()).status).toBe(201);
    expect((await request(server.url, 'GET', products, { key: newPartnerKey })).status).toBe(200);
  });

  it.each([
    ['57P03', 'the database system is not yet accepting connections'],
    ['57P03', 'the database system is starting up'],
    ['57P03', 'the database system is in recovery mode'],
    ['53300', 'sorry, too many clients already'],
  ])('the server refuses the connection (%s %s)', async (code, message) => {
    const failing = await startFailingPostgres({ code, message });
    const pool = createPool({ connectionString: failing.url, max: 2 });
    const app = await serveTestApp(createTestPartnerApp(pool));
    try {
      expectUnavailable(await request(app.url, 'GET', '/api/v2/ota/partner/products', { key: op.ota }), PROBLEM_BASE);
      expectUnavailable(await request(app.url, 'POST', BOOKING, { key: op.ota, body: bookingBody(op.activity, slot) }), PROBLEM_BASE);
    } finally {
      await app.close();
      await pool.end();
      await failing.close();
    }
  });

  it('the server ends the connection in the middle of a booking (57P01): nothing written, and its Idempotency-Key books after', async () => {
    const key = newKey();
    const before = await databaseFingerprint(db.pool);
    const lock = await lockTimeslot();
    let answer;
    try {
      const pending = book(key);
      await db.pool.query('SELECT pg_terminate_backend($1)', [await appBackendWaitingOnLock()]);
      answer = await pending;
    } finally {
      await lock.release();
    }
    expectUnavailable(answer, PROBLEM_BASE);
    expect(await databaseFingerprint(db.pool)).toEqual(before);
    const retry = await book(key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const replay = await book(key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(retry.text);
  });

  it('the connection is lost in the middle of a booking and the database stays away: 503; once it is back, the same Idempotency-Key books', async () => {
    const key = newKey();
    const before = await databaseFingerprint(db.pool);
    const lock = await lockTimeslot();
    let answer;
    try {
      const pending = book(key);
      await appBackendWaitingOnLock();
      // The claim of the key is made; the booking waits. Now the database disappears for the app, which cannot
      // release the claim either.
      proxy.refuse();
      proxy.cut();
      answer = await pending;
    } finally {
      await lock.release();
      await proxy.accept();
    }
    expectUnavailable(answer, PROBLEM_BASE);
    expect(await databaseFingerprint(db.pool)).toEqual(before);
    // The claim is released once the database answers again (within a second or so), not after the minute that makes
    // a claim count as abandoned: until then a retry is told the first request is still running.
    let retry = await book(key);
    await waitFor(
      'the claim of the failed request released',
      async () => {
        if (retry.status !== 409) return true;
        expect(retry.body).toMatchObject({ type: `${PROBLEM_BASE}/idempotency-in-progress` });
        retry = await book(key);
        return false;
      },
      10_000,
      100,
    );
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect((await databaseFingerprint(db.pool)).bookings).toBe(before.bookings! + 1);
  });

  it('the connection is lost while the key is being claimed, and the claim commits after: 503; once the database is back, the same key books', async () => {
    const key = newKey();
    const before = await databaseFingerprint(db.pool);
    // The claim's INSERT waits for this transaction's lock on the table.
    const holder = await db.pool.connect();
    let answer;
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE idempotency_keys IN SHARE MODE');
      const pending = book(key);
      await appBackendWaitingOnLock();
      proxy.refuse();
      proxy.cut();
      answer = await pending;
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    expectUnavailable(answer, PROBLEM_BASE);
    // Its server process did not notice the lost client while it waited: the claim commits now, the answer goes nowhere.
    await waitFor(
      'the lost claim committed',
      async () => (await db.pool.query(`SELECT 1 FROM idempotency_keys WHERE key = $1 AND state = 'running'`, [key])).rows.length === 1,
    );
    await proxy.accept();
    let retry = await book(key);
    await waitFor(
      'the lost claim released',
      async () => {
        if (retry.status !== 409) return true;
        expect(retry.body).toMatchObject({ type: `${PROBLEM_BASE}/idempotency-in-progress` });
        retry = await book(key);
        return false;
      },
      10_000,
      100,
    );
    expect(retry.status).toBe(201);
    expect((await databaseFingerprint(db.pool)).bookings).toBe(before.bookings! + 1);
  });
});

describe('the connection lost after a booking was sent: 503 /outcome-unknown, never /unavailable', () => {
  /** The outcome-unknown problem: a 503 with Retry-After that says what to do, unlike /unavailable. */
  function expectOutcomeUnknown(answer: Awaited<ReturnType<typeof book>>) {
    expect({ status: answer.status, type: answer.body?.type, retryAfter: answer.headers.get('retry-after') }).toEqual({
      status: 503,
      type: `${PROBLEM_BASE}/outcome-unknown`,
      retryAfter: expect.stringMatching(/^\d+$/),
    });
    expect(answer.body.detail).toMatch(/may or may not have been made.*same Idempotency-Key/);
  }

  it('with an Idempotency-Key, lost as its COMMIT went out: the booking was made, and the same key answers it', async () => {
    const key = newKey();
    const before = await databaseFingerprint(db.pool);
    const cut = proxy.cutAfterSending('COMMIT');
    const answer = await book(key);
    await cut;
    expectOutcomeUnknown(answer);
    await waitFor('the lost commit visible', async () => (await databaseFingerprint(db.pool)).bookings === before.bookings! + 1);
    const retry = await book(key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await databaseFingerprint(db.pool)).bookings).toBe(before.bookings! + 1);
  });

  it('without a key, lost as its one statement went out: the booking was made, so the answer must not invite a blind retry', async () => {
    const before = await databaseFingerprint(db.pool);
    const cut = proxy.cutAfterSending('bookings-reserve');
    const answer = await book();
    await cut;
    expectOutcomeUnknown(answer);
    await waitFor('the lost booking visible', async () => (await databaseFingerprint(db.pool)).bookings === before.bookings! + 1);
  });

  it('without a key, the database gone right after the booking committed, before its durability wait: the booking was made', async () => {
    const before = await databaseFingerprint(db.pool);
    const gone = proxy.goneAfterAnswerTo('bookings-reserve');
    let answer;
    try {
      answer = await book();
      await gone;
    } finally {
      await proxy.accept();
    }
    expectOutcomeUnknown(answer);
    expect((await databaseFingerprint(db.pool)).bookings).toBe(before.bookings! + 1);
  });

  it('lost before anything was sent (nothing listens): still 503 /unavailable, and nothing was made', async () => {
    const before = await databaseFingerprint(db.pool);
    proxy.refuse();
    proxy.cut();
    try {
      expectUnavailable(await book(), PROBLEM_BASE);
    } finally {
      await proxy.accept();
    }
    expect((await databaseFingerprint(db.pool)).bookings).toBe(before.bookings);
  });
});
