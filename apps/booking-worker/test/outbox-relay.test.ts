// The outbox relay: only committed events leave, every committed event reaches the booking-events queue (also after
// a crash between the queue accepting it and the row being stamped sent, and after the relay process was killed),
// always with (account, EventID) as job id, and several relays side by side never send a row twice.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '@backbone/contracts';
import { insertOutboxEvent, withTransaction, type Pool } from '@backbone/db';
import { closeQueues, eventJobId, openQueues, validateEvent, type EventQueues } from '@backbone/publisher';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import {
  createTestAccount,
  createTestActivity,
  createTestTimeslot,
  futureDate,
  request,
  useTestDatabase,
  useTestRedis,
  useTestServer,
} from '@backbone/testkit';
import { relayOutboxBatch, startOutboxRelay } from '../src/outbox-relay.js';
import { silentLogger, spawnWorker, untilRunning, waitFor } from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();
let queues: EventQueues;

const partner = useTestServer(() => createTestPartnerApp(db.pool));

beforeAll(() => {
  queues = openQueues(redis.connection(), redis.prefix);
});
afterAll(() => closeQueues(queues));

const bookingEvents = () => queues[QUEUES.bookingEvents];

/** Outbox rows as the partner API writes them, committed, for one account. */
async function insertEvents(pool: Pool, accountId: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await withTransaction(pool, async (client) => {
    for (const eventId of ids) {
      await insertOutboxEvent(client, {
        accountId,
        eventId,
        type: 'booking.created',
        payload: {
          Reference: `R${eventId.slice(0, 6)}`,
          ActivityID: randomUUID(),
          Date: '2030-01-01',
          Time: '09:00',
          Participants: 2,
          Channel: 'ota',
          PaymentReference: null,
        },
      });
    }
  });
  return ids;
}

async function unsent(pool: Pool, eventIds: readonly string[]): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_events WHERE event_id = ANY($1::uuid[]) AND sent_at IS NULL`, [
    eventIds,
  ]);
  return rows[0]!.n;
}

/** EventIDs of the jobs on the booking-events queue (no consumer runs here, so they wait). */
async function queuedEventIds(): Promise<string[]> {
  const jobs = await bookingEvents().getJobs(['waiting', 'active', 'completed', 'failed', 'delayed']);
  for (const job of jobs) expect(job.id).toBe(eventJobId(job.data as { AccountID: string; EventID: string }));
  return jobs.map((job) => job.data.EventID as string);
}

/** 'duplicated' entries in the queue's event stream: adds of a job id that was already there. */
async function duplicateAdds(): Promise<number> {
  const entries = await redis.connection().xrange(`${redis.prefix}:${QUEUES.bookingEvents}:events`, '-', '+');
  return entries.filter(([, fields]) => fields[1] === 'duplicated').length;
}

async function drainOutbox(): Promise<void> {
  while ((await relayOutboxBatch(db.pool, queues, 500)) > 0);
}

describe('outbox relay', () => {
  it('a rolled-back transaction leaves no event, and the relay has nothing to send', async () => {
    const { account } = await createTestAccount(db.pool);
    await drainOutbox();
    const eventId = randomUUID();
    await expect(
      withTransaction(db.pool, async (client) => {
        await insertOutboxEvent(client, { accountId: account.id, eventId, type: 'booking.created', payload: { Reference: 'ROLLED' } });
        throw new Error('the booking failed after its event was written');
      }),
    ).rejects.toThrow('the booking failed');
    expect((await db.pool.query(`SELECT count(*)::int AS n FROM outbox_events WHERE event_id = $1`, [eventId])).rows[0].n).toBe(0);
    expect(await relayOutboxBatch(db.pool, queues, 100)).toBe(0);
    expect(await bookingEvents().getJob(eventId)).toBeUndefined();
  });

  it('bookings made through the partner API reach the queue, one job each, valid against the catalog; a refused booking sends nothing', async () => {
    const { account, key } = await createTestAccount(db.pool, { scopes: ['ota'] });
    const activity = await createTestActivity(db.pool, account.id);
    const day = futureDate(10);
    await createTestTimeslot(db.pool, activity, { date: day, time: '09:00', capacity: 5 });
    const book = (participants: number) =>
      request(partner.url, 'POST', '/api/v2/ota/partner/booking', {
        key,
        body: {
          ActivityID: activity.activityId,
          Date: day,
          Time: '09:00',
          Participants: participants,
          Customer: { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com' },
        },
      });
    const references: string[] = [];
    for (const participants of [2, 2]) {
      const res = await book(participants);
      expect(res.status).toBe(201);
      references.push(res.body.Reference);
    }
    // Only one place is left: refused, and its transaction leaves no event.
    expect((await book(2)).status).toBe(409);

    const { rows } = await db.pool.query<{ event_id: string }>(`SELECT event_id FROM outbox_events WHERE account_id = $1 ORDER BY id`, [account.id]);
    expect(rows).toHaveLength(2);
    await drainOutbox();
    expect(
      await unsent(
        db.pool,
        rows.map((r) => r.event_id),
      ),
    ).toBe(0);
    for (const [i, { event_id }] of rows.entries()) {
      const job = (await bookingEvents().getJob(eventJobId({ AccountID: account.id, EventID: event_id })))!;
      expect(job.name).toBe('booking.created');
      expect(job.data).toMatchObject({
        EventID: event_id,
        AccountID: account.id,
        Reference: references[i],
        ActivityID: activity.activityId,
        Participants: 2,
        Channel: 'ota',
      });
      expect(validateEvent('booking.created', job.data)).toEqual([]);
      expect(job.opts).toMatchObject({ attempts: 8, backoff: { type: 'exponential', delay: 1000 }, removeOnFail: false });
    }
  });

  it('a crash between the queue accepting the jobs and the rows being marked sent sends them again, with the same job ids', async () => {
    const { account } = await createTestAccount(db.pool);
    await drainOutbox();
    const eventIds = await insertEvents(db.pool, account.id, 50);
    // PostgreSQL refuses the "mark sent" update: the jobs are already queued, the transaction rolls back.
    await db.pool.query(`CREATE FUNCTION refuse_mark_sent() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'crash before marking sent'; END $$`);
    await db.pool.query(`CREATE TRIGGER refuse_mark_sent BEFORE UPDATE ON outbox_events FOR EACH ROW EXECUTE FUNCTION refuse_mark_sent()`);
    await expect(relayOutboxBatch(db.pool, queues, 500)).rejects.toThrow('crash before marking sent');
    expect(await unsent(db.pool, eventIds)).toBe(50);
    const duplicatesBefore = await duplicateAdds();
    expect((await queuedEventIds()).filter((id) => eventIds.includes(id))).toHaveLength(50);

    await db.pool.query(`DROP TRIGGER refuse_mark_sent ON outbox_events`);
    expect(await relayOutboxBatch(db.pool, queues, 500)).toBe(50);
    expect(await unsent(db.pool, eventIds)).toBe(0);
    // Sent twice (at least once), queued once: the second add found each job id already there.
    expect((await duplicateAdds()) - duplicatesBefore).toBe(50);
    const queued = (await queuedEventIds()).filter((id) => eventIds.includes(id));
    expect(queued.sort()).toEqual([...eventIds].sort());
  });

  it('several relays side by side send every row exactly once', async () => {
    const { account } = await createTestAccount(db.pool);
    await drainOutbox();
    const eventIds = await insertEvents(db.pool, account.id, 1_000);
    const duplicatesBefore = await duplicateAdds();
    const relays = Array.from({ length: 4 }, () =>
      startOutboxRelay({ pool: db.pool, queues, batchSize: 20, intervalMs: 10, maxBacklog: 100_000, logger: silentLogger }),
    );
    try {
      await waitFor('every row sent', async () => (await unsent(db.pool, eventIds)) === 0);
    } finally {
      await Promise.all(relays.map((relay) => relay.stop()));
    }
    expect(await duplicateAdds()).toBe(duplicatesBefore);
    const queued = (await queuedEventIds()).filter((id) => eventIds.includes(id));
    expect(queued.sort()).toEqual([...eventIds].sort());
  });

  it('holds rows in the outbox while the queue has maxBacklog jobs waiting, and relays them once consumers made room', async () => {
    const { account } = await createTestAccount(db.pool);
    await drainOutbox();
    await bookingEvents().drain();
    const eventIds = await insertEvents(db.pool, account.id, 25);
    const relay = startOutboxRelay({ pool: db.pool, queues, batchSize: 4, intervalMs: 10, maxBacklog: 10, logger: silentLogger });
    try {
      await waitFor('the queue at its limit', async () => (await bookingEvents().count()) === 10);
      // Many pauses later it is still at the limit, and the rest is still unsent in PostgreSQL.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await bookingEvents().count()).toBe(10);
      expect(await unsent(db.pool, eventIds)).toBe(15);

      // A consumer takes the waiting jobs: the relay goes on until everything is sent.
      await bookingEvents().drain();
      // The queue counts the jobs as soon as Redis took them, a moment before the relay's transaction marks their rows.
      await waitFor('the queue at its limit again', async () => (await bookingEvents().count()) === 10 && (await unsent(db.pool, eventIds)) === 5);
      await bookingEvents().drain();
      await waitFor('every row sent', async () => (await unsent(db.pool, eventIds)) === 0);
      expect(await bookingEvents().count()).toBe(5);
    } finally {
      await relay.stop();
    }
  });

  it('a relay process killed with SIGKILL mid-way and started again delivers every committed row', async () => {
    const { account } = await createTestAccount(db.pool);
    await drainOutbox();
    const eventIds = await insertEvents(db.pool, account.id, 1_000);
    const env = {
      REDIS_URL: redis.redisUrl,
      QUEUE_PREFIX: redis.prefix,
      OUTBOX_RELAY_BATCH_SIZE: '20',
      OUTBOX_RELAY_INTERVAL_MS: '10',
    };
    // The relay sends thousands of rows a second and could be done before the kill lands: the last row, locked by the
    // test, is skipped (SKIP LOCKED) until the kill, so one row at least is left for the second relay.
    const brake = await db.pool.connect();
    const first = spawnWorker(db, env);
    try {
      await brake.query('BEGIN');
      await brake.query('SELECT 1 FROM outbox_events WHERE event_id = $1 FOR UPDATE', [eventIds.at(-1)]);
      await untilRunning(first);
      await waitFor('some rows sent', async () => (await unsent(db.pool, eventIds)) <= 900, 60_000, 10);
      first.child.kill('SIGKILL');
      await first.exited;
      expect(await unsent(db.pool, eventIds)).toBeGreaterThan(0);
    } finally {
      await brake.query('ROLLBACK');
      brake.release();
    }

    const second = spawnWorker(db, env);
    await untilRunning(second);
    await waitFor('every row sent', async () => (await unsent(db.pool, eventIds)) === 0, 120_000, 100);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
    const queued = (await queuedEventIds()).filter((id) => eventIds.includes(id));
    expect(queued.sort()).toEqual([...eventIds].sort());
    // Two worker processes start here (tsx compiles each): a minute or more on a loaded machine, as long again for the rows.
  }, 300_000);
});
