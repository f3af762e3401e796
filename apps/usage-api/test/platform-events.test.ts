// POST /api/v2/platform/events: acceptance (202, one job per EventID), every validation rule (422 naming the member,
// nothing queued), authentication and scope, and the typed publisher's own publish-time validation.
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '@backbone/contracts';
import { ValidationError } from '@backbone/domain';
import { createEventPublisher, eventJobId, type EventPublisher } from '@backbone/publisher';
import { createTestAccount, request, useTestDatabase, useTestRedis, useTestServer } from '@backbone/testkit';
import { createTestUsageApp, PROBLEM_BASE } from './support.js';

const PATH = '/api/v2/platform/events';

const db = useTestDatabase();
const redis = useTestRedis();
let queue: Queue;
let publisher: EventPublisher;

const server = useTestServer(() =>
  createTestUsageApp({
    pool: db.pool,
    publisher: createEventPublisher({ connection: redis.connection(), prefix: redis.prefix }),
    redisReady: async () => true,
  }),
);

// The same app with its publisher pointed at a Redis that is not there.
let deadPublisher: EventPublisher;
const deadRedisServer = useTestServer(() => {
  deadPublisher = createEventPublisher({ redisUrl: 'redis://127.0.0.1:1', prefix: redis.prefix, timeoutMs: 300 });
  return createTestUsageApp({ pool: db.pool, publisher: deadPublisher, redisReady: async () => false });
});

beforeAll(() => {
  queue = new Queue(QUEUES.platformEvents, { connection: redis.connection(), prefix: redis.prefix });
  publisher = createEventPublisher({ connection: redis.connection(), prefix: redis.prefix });
});
afterAll(async () => {
  await queue.close();
  await publisher.close();
  await deadPublisher.close();
});

/** Every job on the queue, whatever its state (no worker runs in this file, so they wait). */
async function queuedJobs() {
  return queue.getJobs(['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed']);
}

async function totalJobs(): Promise<number> {
  const counts = await queue.getJobCounts();
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

describe('POST /api/v2/platform/events: accepted', () => {
  it("answers 202 with the event and queues one job named after the event, carrying the key's account", async () => {
    const { account, key } = await createTestAccount(db.pool, { scopes: ['platform:events'] });
    const eventId = randomUUID();
    const res = await request(server.url, 'POST', PATH, {
      key,
      body: { Type: 'waitlist.notified', EventID: eventId, OccurredAt: 1_767_225_600, Data: { WaitlistID: 'w-1', MultiBookingID: 99 } },
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({ data: { EventID: eventId, Type: 'waitlist.notified', AccountID: account.id, OccurredAt: 1_767_225_600 } });
    const job = await queue.getJob(eventJobId({ AccountID: account.id, EventID: eventId }));
    expect(job?.name).toBe('waitlist.notified');
    expect(job?.data).toEqual({ EventID: eventId, AccountID: account.id, OccurredAt: 1_767_225_600, WaitlistID: 'w-1', MultiBookingID: 99 });
    // Bounded retries with backoff from the catalog, failed jobs kept.
    expect(job?.opts).toMatchObject({ attempts: 8, backoff: { type: 'exponential', delay: 1000 }, removeOnFail: false });
  });

  it("defaults OccurredAt to the time of the request; an AccountID equal to the key's account is accepted", async () => {
    const { account, key } = await createTestAccount(db.pool);
    const before = Math.floor(Date.now() / 1000);
    const res = await request(server.url, 'POST', PATH, {
      key,
      body: { Type: 'workflow-email.sent', EventID: randomUUID(), AccountID: account.id.toUpperCase() },
    });
    const after = Math.floor(Date.now() / 1000);
    expect(res.status).toBe(202);
    expect(res.body.data.AccountID).toBe(account.id);
    expect(res.body.data.OccurredAt).toBeGreaterThanOrEqual(before);
    expect(res.body.data.OccurredAt).toBeLessThanOrEqual(after);
  });

  it('the same EventID published again (any case) is 202 again and still one job', async () => {
    const { key } = await createTestAccount(db.pool);
    const eventId = randomUUID();
    const body = { Type: 'order.completed', EventID: eventId, OccurredAt: 1_767_225_600, Data: { BasketID: 'basket-1' } };
    const before = await totalJobs();
    for (const id of [eventId, eventId, eventId.toUpperCase()]) {
      const res = await request(server.url, 'POST', PATH, { key, body: { ...body, EventID: id } });
      expect(res.status).toBe(202);
      expect(res.body.data.EventID).toBe(eventId);
    }
    expect(await totalJobs()).toBe(before + 1);
    expect((await queuedJobs()).filter((job) => job.data.EventID === eventId)).toHaveLength(1);
  });
});

describe('POST /api/v2/platform/events: validation (422 naming the member, nothing queued)', () => {
  const ok = () => ({ Type: 'order.completed', EventID: randomUUID(), OccurredAt: 1_767_225_600, Data: { BasketID: 'b' } });
  const cases: Array<{ name: string; field: string; body?: unknown; rawBody?: string }> = [
    { name: 'Type missing', field: 'Type', body: { EventID: randomUUID(), Data: { BasketID: 'b' } } },
    { name: 'Type unknown', field: 'Type', body: { ...ok(), Type: 'order.refunded' } },
    { name: 'Type of a job that is not a platform event', field: 'Type', body: { ...ok(), Type: 'booking.created' } },
    { name: 'EventID missing', field: 'EventID', body: { Type: 'workflow-email.sent' } },
    { name: 'EventID not a UUID', field: 'EventID', body: { ...ok(), EventID: 'evt-1' } },
    { name: 'EventID a number', field: 'EventID', body: { ...ok(), EventID: 12 } },
    { name: 'OccurredAt a string', field: 'OccurredAt', body: { ...ok(), OccurredAt: '1767225600' } },
    { name: 'OccurredAt a float', field: 'OccurredAt', body: { ...ok(), OccurredAt: 1.5 } },
    { name: 'OccurredAt negative', field: 'OccurredAt', body: { ...ok(), OccurredAt: -1 } },
    { name: 'OccurredAt too large', field: 'OccurredAt', body: { ...ok(), OccurredAt: 253_402_300_800 } },
    { name: 'AccountID not a UUID', field: 'AccountID', body: { ...ok(), AccountID: 'acme' } },
    { name: 'AccountID of another account', field: 'AccountID', body: { ...ok(), AccountID: randomUUID() } },
    { name: 'an unknown member', field: 'Meter', body: { ...ok(), Meter: 'order-completed' } },
    { name: 'Data missing for order.completed', field: 'Data', body: { Type: 'order.completed', EventID: randomUUID() } },
    { name: 'Data not an object', field: 'Data', body: { ...ok(), Data: 'basket' } },
    { name: 'BasketID missing', field: 'Data.BasketID', body: { ...ok(), Data: {} } },
    { name: 'BasketID empty', field: 'Data.BasketID', body: { ...ok(), Data: { BasketID: '' } } },
    { name: 'BasketID a float', field: 'Data.BasketID', body: { ...ok(), Data: { BasketID: 1.5 } } },
    { name: 'BasketID too long', field: 'Data.BasketID', body: { ...ok(), Data: { BasketID: 'b'.repeat(256) } } },
    { name: 'an unknown Data member', field: 'Data.WaitlistID', body: { ...ok(), Data: { BasketID: 'b', WaitlistID: 1 } } },
    { name: 'AccountID inside Data', field: 'Data.AccountID', body: { ...ok(), Data: { BasketID: 'b', AccountID: randomUUID() } } },
    { name: 'MultiBookingID missing', field: 'Data.MultiBookingID', body: { Type: 'waitlist.notified', EventID: randomUUID(), Data: { WaitlistID: 1 } } },
    {
      name: 'WaitlistID null',
      field: 'Data.WaitlistID',
      body: { Type: 'waitlist.notified', EventID: randomUUID(), Data: { WaitlistID: null, MultiBookingID: 2 } },
    },
    {
      name: 'Data members for workflow-email.sent',
      field: 'Data.BasketID',
      body: { Type: 'workflow-email.sent', EventID: randomUUID(), Data: { BasketID: 'b' } },
    },
    { name: 'the body an array', field: '', body: [ok()] },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      const { key } = await createTestAccount(db.pool);
      const before = await totalJobs();
      const res = await request(server.url, 'POST', PATH, { key, body: c.body });
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/validation`, title: 'Unprocessable Entity', status: 422, instance: PATH });
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(c.field);
      if (c.field) expect(res.body.detail).toContain(c.field);
      expect(await totalJobs()).toBe(before);
    });
  }

  it('malformed JSON is 400 and a body that is not JSON is 415, nothing queued', async () => {
    const { key } = await createTestAccount(db.pool);
    const before = await totalJobs();
    const malformed = await request(server.url, 'POST', PATH, { key, rawBody: '{"Type":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.type).toBe(`${PROBLEM_BASE}/malformed-json`);
    const text = await request(server.url, 'POST', PATH, { key, rawBody: 'Type=order.completed', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(await totalJobs()).toBe(before);
  });
});

describe('POST /api/v2/platform/events: queue unreachable', () => {
  it('answers 503 with a problem (not a hang, not a 500) when Redis does not answer; a retry later is safe', async () => {
    const { key } = await createTestAccount(db.pool);
    const res = await request(deadRedisServer.url, 'POST', PATH, { key, body: { Type: 'workflow-email.sent', EventID: randomUUID() } });
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      type: `${PROBLEM_BASE}/unavailable`,
      status: 503,
      detail: 'The event queue is unreachable; nothing was queued. Retry later.',
    });
  });
});

describe('POST /api/v2/platform/events: authentication and scope', () => {
  it('401 without a key or with an unknown one, 403 without platform:events; nothing queued', async () => {
    const account = await createTestAccount(db.pool);
    const usageOnly = await account.keyWith(['usage:write', 'usage:read', 'ota', 'admin']);
    const body = { Type: 'workflow-email.sent', EventID: randomUUID() };
    const before = await totalJobs();

    const none = await request(server.url, 'POST', PATH, { body });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const unknown = await request(server.url, 'POST', PATH, { key: 'bb_unknown_key', body });
    expect(unknown.status).toBe(401);
    const forbidden = await request(server.url, 'POST', PATH, { key: usageOnly, body });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.type).toBe(`${PROBLEM_BASE}/forbidden`);
    expect(await totalJobs()).toBe(before);
  });
});

describe('typed publisher: publish-time validation', () => {
  const accountId = randomUUID();
  const malformed: Array<{ name: string; field: string; publish: () => Promise<void> }> = [
    {
      name: 'a member missing',
      field: 'BasketID',
      publish: () => publisher.publish('order.completed', { EventID: randomUUID(), AccountID: accountId, OccurredAt: 1 } as never),
    },
    {
      name: 'EventID not a UUID',
      field: 'EventID',
      publish: () => publisher.publish('workflow-email.sent', { EventID: 'nope', AccountID: accountId, OccurredAt: 1 }),
    },
    {
      name: 'AccountID missing',
      field: 'AccountID',
      publish: () => publisher.publish('workflow-email.sent', { EventID: randomUUID(), OccurredAt: 1 } as never),
    },
    {
      name: 'OccurredAt in milliseconds',
      field: 'OccurredAt',
      publish: () => publisher.publish('workflow-email.sent', { EventID: randomUUID(), AccountID: accountId, OccurredAt: Date.now() * 1000 }),
    },
    {
      name: 'an unknown member',
      field: 'Extra',
      publish: () =>
        publisher.publish('waitlist.notified', {
          EventID: randomUUID(),
          AccountID: accountId,
          OccurredAt: 1,
          WaitlistID: 1,
          MultiBookingID: 2,
          Extra: true,
        } as never),
    },
    {
      name: 'an unknown job name',
      field: 'name',
      publish: () => publisher.publish('order.refunded' as never, { EventID: randomUUID(), AccountID: accountId, OccurredAt: 1 } as never),
    },
  ];

  for (const c of malformed) {
    it(`refuses ${c.name} with a ValidationError naming ${c.field}, enqueuing nothing`, async () => {
      const before = await totalJobs();
      const error = await c.publish().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors.map((e) => e.field)).toContain(c.field);
      expect((error as ValidationError).message).toContain(c.field);
      expect(await totalJobs()).toBe(before);
    });
  }

  it('publishBulk enqueues nothing when one event of the batch is malformed', async () => {
    const before = await totalJobs();
    const good = { name: 'workflow-email.sent' as const, payload: { EventID: randomUUID(), AccountID: accountId, OccurredAt: 1 } };
    const bad = { name: 'order.completed' as const, payload: { EventID: randomUUID(), AccountID: accountId, OccurredAt: 1, BasketID: '' } };
    await expect(publisher.publishBulk([good, bad])).rejects.toThrow(/^\[1\] order.completed: BasketID must not be empty/);
    expect(await totalJobs()).toBe(before);
    await publisher.publishBulk([good]);
    expect(await totalJobs()).toBe(before + 1);
  });
});
