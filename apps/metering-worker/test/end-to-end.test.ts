// Platform events end to end through real Redis and PostgreSQL: published with the typed publisher and over HTTP,
// consumed by the real worker, stored as one entry of the built-in meter each, and visible in the usage summary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '@backbone/contracts';
import { createEventPublisher, eventJobId, type EventPublisher, type PublishableEvent } from '@backbone/publisher';
import { createTestUsageApp } from '@backbone/test-apps/usage-api';
import { createTestAccount, request, useTestDatabase, useTestRedis, useTestServer } from '@backbone/testkit';
import { countEntries, entriesOf, orderCompleted, useQueues, useWorkers, waitFor, waitlistNotified, workflowEmailSent } from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();
const queues = useQueues(redis);
const workers = useWorkers(db, redis);
let publisher: EventPublisher;

const server = useTestServer(() =>
  createTestUsageApp({
    pool: db.pool,
    publisher: createEventPublisher({ connection: redis.connection(), prefix: redis.prefix }),
    redisReady: async () => true,
  }),
);

beforeAll(() => {
  publisher = createEventPublisher({ connection: redis.connection(), prefix: redis.prefix });
  workers.start();
});
afterAll(() => publisher.close());

const day = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);

async function publishAll(events: readonly PublishableEvent[]) {
  for (const event of events) await publisher.publish(event.name, event.payload);
}

async function summary(key: string, at: number) {
  const res = await request(server.url, 'GET', `/api/v2/usage/meters?from=${day(at)}&to=${day(at)}`, { key });
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('platform events become built-in meter entries', () => {
  it('typed publisher: each kind makes one entry with its meter, Usage 1, the event time and its ExtraInfo; the summary shows them', async () => {
    const { account, key } = await createTestAccount(db.pool);
    const at = 1_767_268_800; // 2026-01-01T12:00:00Z
    const events = [
      orderCompleted(account.id, 'basket-42', at),
      orderCompleted(account.id, 77, at + 60),
      waitlistNotified(account.id, 'wl-9', 12_345, at + 120),
      workflowEmailSent(account.id, at + 180),
    ];
    await publishAll(events);
    await waitFor('4 entries', async () => (await countEntries(db.pool, account.id)) === 4);

    const entries = await entriesOf(db.pool, account.id);
    expect(
      entries.map(({ meter, usage, extra_info, occurred_at }) => ({ meter, usage, extra_info, occurred_at })).sort((a, b) => a.occurred_at - b.occurred_at),
    ).toEqual([
      { meter: 'order-completed', usage: '1', extra_info: '{"BasketID":"basket-42"}', occurred_at: at },
      { meter: 'order-completed', usage: '1', extra_info: '{"BasketID":77}', occurred_at: at + 60 },
      { meter: 'waitlist-notified', usage: '1', extra_info: '{"WaitlistID":"wl-9","MultiBookingID":12345}', occurred_at: at + 120 },
      { meter: 'workflow-email-sent', usage: '1', extra_info: null, occurred_at: at + 180 },
    ]);
    expect(entries.map((e) => e.dedupe_key).sort()).toEqual(events.map((e) => `event:${e.payload.EventID}`).sort());

    const data = await summary(key, at);
    expect(data.Totals).toEqual({ Usage: 4, Events: 4 });
    expect(data.Meters).toEqual([
      { Meter: 'order-completed', TotalUsage: 2, EventCount: 2 },
      { Meter: 'waitlist-notified', TotalUsage: 1, EventCount: 1 },
      { Meter: 'workflow-email-sent', TotalUsage: 1, EventCount: 1 },
    ]);
  });

  it('POST /api/v2/platform/events: each kind makes one entry with its meter and ExtraInfo; the summary shows them', async () => {
    const { account, key } = await createTestAccount(db.pool);
    const at = 1_767_355_200; // 2026-01-02T12:00:00Z
    const bodies = [
      { Type: 'order.completed', EventID: crypto.randomUUID(), OccurredAt: at, Data: { BasketID: 'b-1' } },
      { Type: 'waitlist.notified', EventID: crypto.randomUUID(), OccurredAt: at + 1, Data: { WaitlistID: 5, MultiBookingID: 'mb-6' } },
      { Type: 'workflow-email.sent', EventID: crypto.randomUUID(), OccurredAt: at + 2 },
      { Type: 'workflow-email.sent', EventID: crypto.randomUUID(), OccurredAt: at + 3, Data: {} },
    ];
    for (const body of bodies) {
      const res = await request(server.url, 'POST', '/api/v2/platform/events', { key, body });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ data: { EventID: body.EventID, Type: body.Type, AccountID: account.id, OccurredAt: body.OccurredAt } });
    }
    await waitFor('4 entries', async () => (await countEntries(db.pool, account.id)) === 4);
    const entries = await entriesOf(db.pool, account.id);
    expect(entries.map(({ meter, extra_info, occurred_at }) => ({ meter, extra_info, occurred_at })).sort((a, b) => a.occurred_at - b.occurred_at)).toEqual([
      { meter: 'order-completed', extra_info: '{"BasketID":"b-1"}', occurred_at: at },
      { meter: 'waitlist-notified', extra_info: '{"WaitlistID":5,"MultiBookingID":"mb-6"}', occurred_at: at + 1 },
      { meter: 'workflow-email-sent', extra_info: null, occurred_at: at + 2 },
      { meter: 'workflow-email-sent', extra_info: null, occurred_at: at + 3 },
    ]);
    const data = await summary(key, at);
    expect(data.Meters).toEqual([
      { Meter: 'workflow-email-sent', TotalUsage: 2, EventCount: 2 },
      { Meter: 'order-completed', TotalUsage: 1, EventCount: 1 },
      { Meter: 'waitlist-notified', TotalUsage: 1, EventCount: 1 },
    ]);
  });

  it('the same event published three times (publisher, HTTP, publisher again after it was processed) is one entry', async () => {
    const { account, key } = await createTestAccount(db.pool);
    const event = orderCompleted(account.id, 'basket-dup');
    const { EventID, OccurredAt } = event.payload;
    await publishAll([event]);
    const res = await request(server.url, 'POST', '/api/v2/platform/events', {
      key,
      body: { Type: 'order.completed', EventID: EventID.toUpperCase(), OccurredAt, Data: { BasketID: 'basket-dup' } },
    });
    expect(res.status).toBe(202);
    await waitFor('the entry', async () => (await countEntries(db.pool, account.id)) === 1);
    // Processed and kept as completed: publishing it once more neither queues nor stores anything new.
    await publishAll([event]);
    const job = await queues.queue().getJob(eventJobId(event.payload));
    expect(await job?.getState()).toBe('completed');
    // Even a job that Redis no longer knows (removed, as after the completed-jobs retention) makes no second entry.
    await job!.remove();
    await publishAll([event]);
    await waitFor('the republished job to complete', async () => (await (await queues.queue().getJob(eventJobId(event.payload)))?.getState()) === 'completed');
    expect(await countEntries(db.pool, account.id)).toBe(1);
  });

  it('two accounts publishing the same EventID (HTTP and the typed publisher) each get their own entry: an event is (account, EventID)', async () => {
    const b = await createTestAccount(db.pool);
    const a = await createTestAccount(db.pool);
    const body = { Type: 'workflow-email.sent', EventID: crypto.randomUUID() };
    for (const { key } of [b, a]) expect((await request(server.url, 'POST', '/api/v2/platform/events', { key, body })).status).toBe(202);
    const shared = orderCompleted(b.account.id, 'basket-b');
    await publishAll([shared, { ...shared, payload: { ...shared.payload, AccountID: a.account.id } } as PublishableEvent]);
    await waitFor(
      'two entries in each account',
      async () => (await countEntries(db.pool, b.account.id)) === 2 && (await countEntries(db.pool, a.account.id)) === 2,
    );
    for (const { account } of [a, b]) {
      const keys = (await entriesOf(db.pool, account.id)).map((e) => e.dedupe_key).sort();
      expect(keys).toEqual([`event:${body.EventID}`, `event:${shared.payload.EventID}`].sort());
    }
  });

  it('an event of an unknown account fails for good: failed set at once (no retries), reason given, nothing stored', async () => {
    const ghost = crypto.randomUUID();
    const event = orderCompleted(ghost, 'basket-ghost');
    await publishAll([event]);
    await waitFor('the job to fail', async () => (await (await queues.queue().getJob(eventJobId(event.payload)))?.getState()) === 'failed');
    const job = (await queues.queue().getJob(eventJobId(event.payload)))!;
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toBe(`Unknown account ${ghost}.`);
    expect(await countEntries(db.pool, ghost)).toBe(0);
  });

  it('a job that skipped the publisher and breaks the catalog schema is checked again in the worker and fails for good', async () => {
    const { account } = await createTestAccount(db.pool);
    const eventId = crypto.randomUUID();
    await queues
      .queue(QUEUES.platformEvents)
      .add('order.completed', { EventID: eventId, AccountID: account.id, OccurredAt: 1.5 }, { jobId: eventId, attempts: 3 });
    await waitFor('the job to fail', async () => (await (await queues.queue().getJob(eventId))?.getState()) === 'failed');
    const job = (await queues.queue().getJob(eventId))!;
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toContain('BasketID is required');
    expect(job.failedReason).toContain('OccurredAt must be of type integer');
    expect(await countEntries(db.pool, account.id)).toBe(0);
  });

  it('a job name without a handler on the platform-events queue fails for good, naming the job', async () => {
    const { account } = await createTestAccount(db.pool);
    const eventId = crypto.randomUUID();
    await queues.queue().add('order.refunded', { EventID: eventId, AccountID: account.id, OccurredAt: 1 }, { jobId: eventId, attempts: 3 });
    await waitFor('the job to fail', async () => (await (await queues.queue().getJob(eventId))?.getState()) === 'failed');
    const job = (await queues.queue().getJob(eventId))!;
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toBe("No handler for job 'order.refunded' on platform-events.");
    expect(await countEntries(db.pool, account.id)).toBe(0);
  });
});
