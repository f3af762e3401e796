// isDatabaseUnavailable tells PostgreSQL being out of reach from a statement that failed, on the errors node-postgres
// really raises: refused, starting up, full, a connection ended by the server or cut on the way. A client whose
// connection dies between two statements of a transaction fails its next statement instead of crashing the process,
// and a batch of reservations whose connection was lost is not made again item by item.
import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookingStore, createPool, isDatabaseUnavailable, withTransaction, type Pool } from '@backbone/db';
import type { Reservation } from '@backbone/domain';
import {
  createTestAccount,
  createTestActivity,
  createTestTimeslot,
  freePort,
  futureDate,
  startDatabaseProxy,
  startFailingPostgres,
  useTestDatabase,
  waitFor,
} from '@backbone/testkit';

const db = useTestDatabase();
/** This file's own connections, told apart from other test files' in pg_stat_activity by their application name. */
const applicationName = `db-unavailable-${randomBytes(4).toString('hex')}`;
let pool: Pool;

beforeAll(() => {
  pool = createPool({ connectionString: db.databaseUrl, schema: db.schema, max: 5, applicationName });
});
afterAll(() => pool.end());

/** The error `work` fails with (it must fail). */
async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

/** The pid of this file's one backend waiting on a lock whose query matches `query`. */
async function backendWaitingOnLock(query: string): Promise<number> {
  let pid = 0;
  await waitFor(`a backend of ${applicationName} waiting on a lock (${query})`, async () => {
    const { rows } = await db.pool.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock' AND query LIKE $2`,
      [applicationName, `%${query}%`],
    );
    pid = rows[0]?.pid ?? 0;
    return rows.length === 1;
  });
  return pid;
}

async function terminate(pid: number): Promise<void> {
  await db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
}

describe('isDatabaseUnavailable', () => {
  it('nothing listens: ECONNREFUSED', async () => {
    const refused = createPool({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/postgres`, max: 1 });
    try {
      const error = await failureOf(() => refused.query('SELECT 1'));
      expect(error).toMatchObject({ code: 'ECONNREFUSED' });
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await refused.end();
    }
  });

  it.each([
    ['57P03', 'the database system is not yet accepting connections'],
    ['57P03', 'the database system is starting up'],
    ['57P03', 'the database system is in recovery mode'],
    ['53300', 'sorry, too many clients already'],
  ])('the server refuses the connection: %s %s', async (code, message) => {
    const server = await startFailingPostgres({ code, message });
    const refusing = createPool({ connectionString: server.url, max: 1 });
    try {
      const error = await failureOf(() => refusing.query('SELECT 1'));
      expect(error).toMatchObject({ code, message });
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await refusing.end();
      await server.close();
    }
  });

  it('a server that accepts and never answers: the query fails as unavailable once the connect timeout is past', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const hanging = createPool({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`, max: 1, connectTimeoutMs: 300 });
    try {
      const started = Date.now();
      const error = await failureOf(() => hanging.query('SELECT 1'));
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await hanging.end();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('every connection of the pool stuck: the next query fails as unavailable after the wait, not never', async () => {
    const small = createPool({ connectionString: db.databaseUrl, schema: db.schema, max: 1, connectTimeoutMs: 300 });
    // Its one connection, however long a loaded machine takes to open it: 300 ms is the wait under test, not a budget.
    const connect = () => small.connect();
    let stuck: Awaited<ReturnType<typeof connect>> | undefined;
    for (const deadline = Date.now() + 60_000; !stuck;) {
      stuck = await connect().catch((error: unknown) => {
        if (Date.now() > deadline) throw error;
        return undefined;
      });
    }
    try {
      const error = await failureOf(() => small.query('SELECT 1'));
      expect(error).toMatchObject({ message: 'timeout exceeded when trying to connect' });
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      stuck.release();
      await small.end();
    }
  });

  it('the server ends the connection during a statement (pg_terminate_backend): 57P01', async () => {
    const lock = await db.pool.connect();
    try {
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE timeslots IN ACCESS EXCLUSIVE MODE');
      const waiting = failureOf(() => pool.query('SELECT count(*) FROM timeslots'));
      await terminate(await backendWaitingOnLock('FROM timeslots'));
      const error = await waiting;
      expect(error).toMatchObject({ code: '57P01' });
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await lock.query('ROLLBACK');
      lock.release();
    }
  });

  it('the connection is cut on the way: Connection terminated unexpectedly', async () => {
    const proxy = await startDatabaseProxy(db.databaseUrl);
    const cut = createPool({ connectionString: proxy.url, max: 1 });
    try {
      await cut.query('SELECT 1');
      const sleeping = failureOf(() => cut.query('SELECT pg_sleep(30)'));
      proxy.cut();
      const error = await sleeping;
      expect(error).toMatchObject({ message: 'Connection terminated unexpectedly' });
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await cut.end();
      await proxy.close();
    }
  });

  it('what the statement itself did wrong is not unavailability', async () => {
    await db.pool.query('CREATE TABLE unavailable_probe (id int PRIMARY KEY)');
    await db.pool.query('INSERT INTO unavailable_probe VALUES (1)');
    const duplicate = await failureOf(() => pool.query('INSERT INTO unavailable_probe VALUES (1)'));
    const syntax = await failureOf(() => pool.query('SELEC 1'));
    const missing = await failureOf(() => pool.query('SELECT * FROM no_such_table'));
    expect([duplicate, syntax, missing]).toMatchObject([{ code: '23505' }, { code: '42601' }, { code: '42P01' }]);
    for (const error of [duplicate, syntax, missing, new Error('boom'), { code: '08P01' }, undefined, null, 'ECONNREFUSED']) {
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
    // What wraps a connection failure is one too.
    expect(isDatabaseUnavailable(new Error('while booking', { cause: { code: '57P01' } }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([{ code: 'ECONNREFUSED' }]))).toBe(true);
    expect(isDatabaseUnavailable({ code: '08006' })).toBe(true);
  });
});

describe('a transaction whose connection dies between two statements', () => {
  it('fails its next statement as unavailable, without an uncaught error, and the pool goes on with a new connection', async () => {
    const error = await failureOf(() =>
      withTransaction(pool, async (client) => {
        const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        // The client is checked out and idle: the server's FATAL message reaches no query, only the client's 'error'.
        await terminate(rows[0]!.pid);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await client.query('SELECT 1');
      }),
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
    const { rows } = await pool.query<{ one: number }>('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
  });
});

describe('a batch of reservations whose connection was lost', () => {
  it('fails with its items: none is made again alone, since the lost statement may have committed', async () => {
    const { account } = await createTestAccount(db.pool);
    const activity = await createTestActivity(db.pool, account.id);
    const slot = await createTestTimeslot(db.pool, activity, { date: futureDate(5), time: '09:00', capacity: 10 });
    const reservation = (): Reservation => {
      const reference = `U${randomBytes(5).toString('hex').toUpperCase()}`;
      const eventId = randomUUID();
      return {
        accountId: account.id,
        activity: { id: activity.id, activityId: activity.activityId, maxParticipants: 10, questions: null },
        date: slot.date,
        time: slot.time,
        participants: 1,
        reference,
        channel: 'ota',
        customer: { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: null },
        paymentReference: null,
        answers: [],
        fileIds: [],
        apiKeyId: null,
        partnerId: null,
        createdByUserId: null,
        holdMinutes: null,
        test: false,
        eventId,
        event: {
          EventID: eventId,
          AccountID: account.id,
          Status: 'confirmed',
          Reference: reference,
          ActivityID: activity.activityId,
          Date: slot.date,
          Time: slot.time,
          Participants: 1,
          Channel: 'ota',
          PaymentReference: null,
        },
      };
    };
    const lock = await db.pool.connect();
    try {
      await lock.query('BEGIN');
      await lock.query('SELECT 1 FROM timeslots WHERE id = $1 FOR UPDATE', [slot.id]);
      const store = createBookingStore(pool);
      // Submitted together: the first is made alone at once, the other two wait for it and are then made in one batch.
      const outcomes = [reservation(), reservation(), reservation()].map((r) =>
        store.reserve(r).then(
          () => null,
          (error: unknown) => error,
        ),
      );
      await terminate(await backendWaitingOnLock('UPDATE timeslots SET booked'));
      await terminate(await backendWaitingOnLock('unnest'));
      // Tried again alone, the batch's items would be booked once the lock is gone.
      await lock.query('ROLLBACK');
      const errors = await Promise.all(outcomes);
      expect(errors.map((error) => isDatabaseUnavailable(error))).toEqual([true, true, true]);
    } finally {
      await lock.query('ROLLBACK').catch(() => undefined);
      lock.release();
    }
    const { rows } = await db.pool.query<{ booked: number; bookings: number }>(
      'SELECT booked, (SELECT count(*)::int FROM bookings WHERE timeslot_id = t.id) AS bookings FROM timeslots t WHERE id = $1',
      [slot.id],
    );
    expect(rows[0]).toEqual({ booked: 0, bookings: 0 });
  });
});
