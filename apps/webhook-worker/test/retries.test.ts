// Retries and endpoint health, with the schedule and the disable window shortened by configuration: a receiver down
// then up gets the event after retries; one that always fails ends failed after the last attempt, every attempt
// recorded, and a replay (status set back to pending and a fresh job, as the partner API does) delivers it once the
// receiver recovers. An endpoint failing for longer than the window is disabled at its next failure.
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
const RETRY_DELAYS_MS = [200, 200, 200, 200];

async function endpointHealth(endpointId: string) {
  const { rows } = await db.pool.query<{ failing_since: Date | null; disabled_at: Date | null; disabled_reason: string | null }>(
    `SELECT failing_since, disabled_at, disabled_reason FROM webhook_endpoints WHERE id = $1`,
    [endpointId],
  );
  return rows[0]!;
}

beforeAll(async () => {
  receiver = await startReceiver();
  // The disable window is a minute here (five days in production): long enough that no other test's endpoint reaches it.
  workers.start(redis.prefix, { retryDelaysMs: RETRY_DELAYS_MS, disableAfterMs: 60_000 });
});

describe('retries', () => {
  it('a receiver that is down, then up, gets the event after retries; its failing_since is cleared by the success', async () => {
    const { account } = await createTestAccount(db.pool);
    const partner = await createTestPartner(db.pool, account.id);
    const down = await startReceiver();
    const endpoint = await createTestEndpoint(db.pool, down, account.id, partner, ['booking.confirmed']);
    await down.down();
    const event = bookingConfirmed(account.id, partner);
    await queues.publish('booking.confirmed', event);

    await waitFor('two refused attempts', async () => (await deliveriesOf(db.pool, endpoint.id))[0]?.attempt_count === 2);
    expect((await endpointHealth(endpoint.id)).failing_since).not.toBeNull();
    await down.up();

    const [delivery] = await untilDeliveries(db.pool, endpoint.id, 1, 'delivered');
    const attempts = await attemptsOf(db.pool, delivery!.id);
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    expect(attempts.at(-1)).toMatchObject({ status_code: 200, error: null });
    for (const failed of attempts.slice(0, -1)) expect(failed).toMatchObject({ status_code: null, error: expect.stringContaining('ECONNREFUSED') });
    expect(down.received.map((message) => message.webhookId)).toEqual([event.EventID]);
    expect(await endpointHealth(endpoint.id)).toMatchObject({ failing_since: null, disabled_at: null });
  });

  it('one that always answers 500 ends failed after the last attempt, every attempt listed; a replay delivers once it recovers', async () => {
    const { account } = await createTestAccount(db.pool);
    const partner = await createTestPartner(db.pool, account.id);
    const endpoint = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.confirmed'], () => ({ status: 500 }));
    const event = bookingConfirmed(account.id, partner);
    await queues.publish('booking.confirmed', event);

    const [failed] = await untilDeliveries(db.pool, endpoint.id, 1, 'failed');
    expect(failed).toMatchObject({ attempt_count: RETRY_DELAYS_MS.length + 1, last_status_code: 500, last_error: 'answered 500' });
    expect(failed!.failed_at).not.toBeNull();
    const attempts = await attemptsOf(db.pool, failed!.id);
    expect(attempts).toHaveLength(RETRY_DELAYS_MS.length + 1);
    for (const attempt of attempts) expect(attempt).toMatchObject({ status_code: 500, error: 'answered 500', response_excerpt: 'answer 500' });
    expect(receiver.received.filter((message) => message.path === endpoint.path)).toEqual([]);

    // The replay, as the partner API makes it: the row back to pending and a job with a fresh id.
    receiver.setBehaviour(endpoint.path, () => ({ status: 200 }));
    await db.pool.query(`UPDATE webhook_deliveries SET status = 'pending', failed_at = NULL, updated_at = now() WHERE id = $1`, [failed!.id]);
    await queues.deliveries().add(WEBHOOK_DELIVERY_JOB, { DeliveryID: failed!.id, AccountID: account.id }, { jobId: randomUUID() });

    const [delivered] = await untilDeliveries(db.pool, endpoint.id, 1, 'delivered');
    expect(delivered).toMatchObject({ attempt_count: RETRY_DELAYS_MS.length + 2, last_status_code: 200, last_error: null });
    expect(receiver.received.filter((message) => message.path === endpoint.path).map((message) => message.webhookId)).toEqual([event.EventID]);
  });

  it('a replayed delivery gets a full schedule of its own, however many attempts the earlier run made', async () => {
    const { account } = await createTestAccount(db.pool);
    const partner = await createTestPartner(db.pool, account.id);
    const endpoint = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.confirmed'], () => ({ status: 500 }));
    await queues.publish('booking.confirmed', bookingConfirmed(account.id, partner));
    const [failed] = await untilDeliveries(db.pool, endpoint.id, 1, 'failed');

    // Still failing for the first two attempts of the replay, then up: the replay retries rather than failing at once.
    let replayCalls = 0;
    receiver.setBehaviour(endpoint.path, () => (++replayCalls <= 2 ? { status: 500 } : { status: 200 }));
    await db.pool.query(`UPDATE webhook_deliveries SET status = 'pending', failed_at = NULL WHERE id = $1`, [failed!.id]);
    await queues.deliveries().add(WEBHOOK_DELIVERY_JOB, { DeliveryID: failed!.id, AccountID: account.id }, { jobId: randomUUID() });

    const [delivered] = await untilDeliveries(db.pool, endpoint.id, 1, 'delivered');
    expect(delivered!.attempt_count).toBe(RETRY_DELAYS_MS.length + 1 + 3);
    expect(replayCalls).toBe(3);
  });
});

describe('endpoint health', () => {
  it('an endpoint that has failed every attempt for longer than the window is disabled, says why, and is given no new events', async () => {
    const { account } = await createTestAccount(db.pool);
    const partner = await createTestPartner(db.pool, account.id);
    const endpoint = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.confirmed'], () => ({ status: 500 }));
    // Its unbroken run of failures started two minutes ago: past the window, so its next failure disables it.
    await db.pool.query(`UPDATE webhook_endpoints SET failing_since = now() - interval '2 minutes' WHERE id = $1`, [endpoint.id]);
    await queues.publish('booking.confirmed', bookingConfirmed(account.id, partner));

    const [delivery] = await untilDeliveries(db.pool, endpoint.id, 1, 'failed');
    const health = await endpointHealth(endpoint.id);
    expect(health.disabled_at).not.toBeNull();
    expect(health.disabled_reason).toMatch(/^Every delivery attempt failed since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\.$/);
    // Disabled at that failure, not at the end of the schedule.
    expect(delivery).toMatchObject({ attempt_count: 1, last_status_code: 500 });

    const later = bookingConfirmed(account.id, partner);
    await queues.publish('booking.confirmed', later);
    await waitFor('the event job to complete', async () => (await queues.bookingEvents().getJob(`${account.id}.${later.EventID}`))?.finishedOn !== undefined);
    expect(await deliveriesOf(db.pool, endpoint.id)).toHaveLength(1);
  });

  it('a failure within the window does not disable; the pending deliveries of an endpoint disabled meanwhile end failed, unattempted', async () => {
    const { account } = await createTestAccount(db.pool);
    const partner = await createTestPartner(db.pool, account.id);
    let calls = 0;
    const endpoint = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.confirmed'], () => (++calls, { status: 500 }));
    await queues.publish('booking.confirmed', bookingConfirmed(account.id, partner));
    await waitFor('the first failure', async () => (await deliveriesOf(db.pool, endpoint.id))[0]?.attempt_count === 1);
    expect(await endpointHealth(endpoint.id)).toMatchObject({ disabled_at: null });
    // Disabled by another delivery (or an operator) while this one waits for its retry.
    await db.pool.query(`UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = 'test' WHERE id = $1`, [endpoint.id]);

    const [delivery] = await untilDeliveries(db.pool, endpoint.id, 1, 'failed');
    expect(delivery).toMatchObject({ attempt_count: 1, last_error: 'endpoint disabled: not attempted' });
    expect(calls).toBe(1);
  });
});
