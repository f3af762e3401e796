// Delivery to a real receiver: every matching endpoint gets each event once, signed per Standard Webhooks (verified by
// the standardwebhooks verifier), with the event as the body's data and its EventID as webhook-id; endpoints of other
// types, partners or accounts do not. Redirects are not followed, a destination the guard refuses is not called (and
// its endpoint is disabled; a host that does not resolve is retried), a job whose endpoint was deleted ends quietly,
// and one whose data is not a delivery fails without retries.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_DELIVERY_JOB } from '@backbone/contracts';
import { createTestAccount, useTestDatabase, useTestRedis } from '@backbone/testkit';
import {
  attemptsOf,
  bookingConfirmed,
  createTestEndpoint,
  createTestPartner,
  deliveriesOf,
  startReceiver,
  untilDeliveries,
  useQueues,
  useWebhookWorkers,
  waitFor,
  type Receiver,
} from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();
const queues = useQueues(redis);
const workers = useWebhookWorkers(db, redis);
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  workers.start(redis.prefix, { retryDelaysMs: [100, 100] });
});

describe('fan-out and signed delivery', () => {
  it('delivers each event once to every matching endpoint, signed, with the event as data and its EventID as webhook-id', async () => {
    const { account } = await createTestAccount(db.pool);
    const { account: otherAccount } = await createTestAccount(db.pool);
    const partner = await createTestPartner(db.pool, account.id);
    const otherPartner = await createTestPartner(db.pool, account.id);
    const foreignPartner = await createTestPartner(db.pool, otherAccount.id);
    const both = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.created', 'booking.confirmed']);
    const confirmedOnly = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.confirmed']);
    const cancelledOnly = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.cancelled']);
    const otherPartners = await createTestEndpoint(db.pool, receiver, account.id, otherPartner, ['booking.confirmed']);
    const foreign = await createTestEndpoint(db.pool, receiver, otherAccount.id, foreignPartner, ['booking.confirmed']);
    const disabled = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.confirmed']);
    await db.pool.query(`UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = 'test' WHERE id = $1`, [disabled.id]);

    const events = Array.from({ length: 5 }, () => bookingConfirmed(account.id, partner));
    for (const event of events) await queues.publish('booking.confirmed', event);
    // The same event again under another job id (a relay that crashed after adding it): it fans out once.
    await queues.publish('booking.confirmed', events[0]!, `again-${events[0]!.EventID}`);

    await untilDeliveries(db.pool, both.id, 5, 'delivered');
    await untilDeliveries(db.pool, confirmedOnly.id, 5, 'delivered');
    await waitFor('the repeated job to complete', async () => (await queues.bookingEvents().getJobCounts('completed')).completed === 6);

    expect(receiver.rejected).toEqual([]);
    for (const endpoint of [both, confirmedOnly]) {
      const got = receiver.received.filter((message) => message.path === endpoint.path);
      expect(got.map((message) => message.webhookId).sort()).toEqual(events.map((event) => event.EventID).sort());
      for (const message of got) {
        const event = events.find((candidate) => candidate.EventID === message.webhookId)!;
        expect(message.body).toEqual({ type: 'booking.confirmed', timestamp: new Date(event.OccurredAt * 1000).toISOString(), data: event });
      }
    }
    for (const endpoint of [cancelledOnly, otherPartners, foreign, disabled]) {
      expect(receiver.hits(endpoint.path)).toBe(0);
      expect(await deliveriesOf(db.pool, endpoint.id)).toEqual([]);
    }
    const [delivery] = await deliveriesOf(db.pool, both.id);
    expect(delivery).toMatchObject({ attempt_count: 1, last_status_code: 200, last_error: null });
    expect(await attemptsOf(db.pool, delivery!.id)).toEqual([expect.objectContaining({ status_code: 200, error: null, response_excerpt: 'answer 200' })]);
  });

  it('delivers a sandbox booking’s event with its test marker (data.Test), to the same partner’s endpoints', async () => {
    const { account } = await createTestAccount(db.pool);
    const partner = await createTestPartner(db.pool, account.id);
    const endpoint = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.confirmed']);
    const test = { ...bookingConfirmed(account.id, partner), Test: true as const };
    const live = bookingConfirmed(account.id, partner);
    await queues.publish('booking.confirmed', test);
    await queues.publish('booking.confirmed', live);
    await untilDeliveries(db.pool, endpoint.id, 2, 'delivered');
    const got = receiver.received.filter((message) => message.path === endpoint.path);
    const byId = new Map(got.map((message) => [message.webhookId, message.body as { data: Record<string, unknown> }]));
    expect(byId.get(test.EventID)!.data.Test).toBe(true);
    expect(byId.get(live.EventID)!.data).not.toHaveProperty('Test');
  });

  it("an event without a partner (the operator's own channels) goes nowhere", async () => {
    const { account } = await createTestAccount(db.pool);
    const partner = await createTestPartner(db.pool, account.id);
    const endpoint = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.confirmed']);
    const event = bookingConfirmed(account.id, undefined);
    await queues.publish('booking.confirmed', event);
    await waitFor('the event job to complete', async () => (await queues.bookingEvents().getJob(`${account.id}.${event.EventID}`))?.finishedOn !== undefined);
    expect(await (await queues.bookingEvents().getJob(`${account.id}.${event.EventID}`))!.getState()).toBe('completed');
    expect(await deliveriesOf(db.pool, endpoint.id)).toEqual([]);
  });
});

describe('what a delivery does not do', () => {
  it('does not follow a redirect: a 3xx is a failed attempt and the target is never called', async () => {
    const { account } = await createTestAccount(db.pool);
    const partner = await createTestPartner(db.pool, account.id);
    const target = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.cancelled']);
    const redirecting = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.confirmed'], () => ({
      status: 302,
      headers: { location: receiver.url + target.path },
    }));
    await queues.publish('booking.confirmed', bookingConfirmed(account.id, partner));

    const [delivery] = await untilDeliveries(db.pool, redirecting.id, 1, 'failed');
    expect(delivery).toMatchObject({ attempt_count: 3, last_status_code: 302 });
    const attempts = await attemptsOf(db.pool, delivery!.id);
    expect(attempts).toHaveLength(3);
    for (const attempt of attempts) expect(attempt).toMatchObject({ status_code: 302, error: 'redirect (302) not followed' });
    expect(receiver.hits(target.path)).toBe(0);
  });

  it('does not call a destination the guard refuses (a name resolving to loopback, not allowed), records the refusal and disables the endpoint', async () => {
    const { account } = await createTestAccount(db.pool);
    const partner = await createTestPartner(db.pool, account.id);
    const endpoint = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.confirmed']);
    // The same receiver under the name 'localhost': only 127.0.0.1 is allowed, so the name is vetted and refused.
    const refusedUrl = receiver.url.replace('http://127.0.0.1', 'https://localhost') + endpoint.path;
    await db.pool.query(`UPDATE webhook_endpoints SET url = $2 WHERE id = $1`, [endpoint.id, refusedUrl]);
    await queues.publish('booking.confirmed', bookingConfirmed(account.id, partner));

    const [delivery] = await untilDeliveries(db.pool, endpoint.id, 1, 'failed');
    const attempts = await attemptsOf(db.pool, delivery!.id);
    // A refusal is not retried: the same URL would be refused again until it or the allowed hosts change.
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.status_code).toBeNull();
    expect(attempts[0]!.error).toMatch(/refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    const { rows } = await db.pool.query<{ disabled_reason: string | null }>(`SELECT disabled_reason FROM webhook_endpoints WHERE id = $1`, [endpoint.id]);
    expect(rows[0]!.disabled_reason).toMatch(/^The destination was refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address\./);
    expect(receiver.hits(endpoint.path)).toBe(0);
  });

  it('retries a host that does not resolve (DNS may come back) and leaves its endpoint enabled', async () => {
    const { account } = await createTestAccount(db.pool);
    const partner = await createTestPartner(db.pool, account.id);
    const endpoint = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.confirmed']);
    // .invalid never resolves (RFC 6761).
    await db.pool.query(`UPDATE webhook_endpoints SET url = 'https://hooks.invalid/bookings' WHERE id = $1`, [endpoint.id]);
    await queues.publish('booking.confirmed', bookingConfirmed(account.id, partner));

    const [delivery] = await untilDeliveries(db.pool, endpoint.id, 1, 'failed');
    const attempts = await attemptsOf(db.pool, delivery!.id);
    expect(attempts).toHaveLength(3);
    for (const attempt of attempts) expect(attempt.error).toBe('webhook destination refused: hooks.invalid does not resolve');
    const { rows } = await db.pool.query<{ disabled_at: Date | null }>(`SELECT disabled_at FROM webhook_endpoints WHERE id = $1`, [endpoint.id]);
    expect(rows[0]!.disabled_at).toBeNull();
  });

  it('ends quietly when the endpoint is deleted during an attempt', async () => {
    const { account } = await createTestAccount(db.pool);
    const partner = await createTestPartner(db.pool, account.id);
    // The receiver answers (503, which would be retried) only after the test has deleted the endpoint.
    const endpoint = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.confirmed'], () => ({ status: 503, delayMs: 500 }));
    await queues.publish('booking.confirmed', bookingConfirmed(account.id, partner));
    const [delivery] = await untilDeliveries(db.pool, endpoint.id, 1, 'pending');
    await waitFor('the attempt to reach the receiver', async () => receiver.hits(endpoint.path) === 1);
    await db.pool.query(`DELETE FROM webhook_endpoints WHERE id = $1`, [endpoint.id]);

    const deliveries = queues.deliveries();
    await waitFor('the delivery job to finish', async () => (await deliveries.getJob(delivery!.id))?.finishedOn !== undefined);
    const job = (await deliveries.getJob(delivery!.id))!;
    expect(await job.getState()).toBe('completed');
    // Neither retried by the schedule nor failed and retried by BullMQ.
    expect(job.attemptsMade).toBe(1);
    expect(receiver.hits(endpoint.path)).toBe(1);
  });

  it('ends quietly when the delivery is gone before its job runs (its endpoint deleted while it waited)', async () => {
    const { account } = await createTestAccount(db.pool);
    const deliveries = queues.deliveries();
    const deliveryId = randomUUID();
    await deliveries.add(WEBHOOK_DELIVERY_JOB, { DeliveryID: deliveryId, AccountID: account.id }, { jobId: deliveryId });
    await waitFor('the delivery job to finish', async () => (await deliveries.getJob(deliveryId))?.finishedOn !== undefined);
    expect(await (await deliveries.getJob(deliveryId))!.getState()).toBe('completed');
  });

  it('fails a job whose data is not a delivery, without retrying it', async () => {
    const deliveries = queues.deliveries();
    const job = await deliveries.add(WEBHOOK_DELIVERY_JOB, { DeliveryID: 'not-a-uuid', AccountID: 'nor-this' }, { attempts: 5 });
    await waitFor('the job to fail', async () => (await deliveries.getJob(job.id!))?.finishedOn !== undefined);
    const failed = (await deliveries.getJob(job.id!))!;
    expect(await failed.getState()).toBe('failed');
    expect(failed.attemptsMade).toBe(1);
    expect(failed.failedReason).toMatch(/DeliveryID and AccountID must be UUIDs/);
  });
});
