// A slow or dead endpoint never delays the others: with a receiver that never answers beside a healthy one, and more
// deliveries to the dead one than the worker has slots, every delivery to the healthy one arrives while the dead one's
// first attempts are still hanging (none of them has even timed out yet).
import { beforeAll, expect, it } from 'vitest';
import { createTestAccount, useTestDatabase, useTestRedis } from '@backbone/testkit';
import {
  bookingConfirmed,
  createTestEndpoint,
  createTestPartner,
  deliveriesOf,
  startReceiver,
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
const CONCURRENCY = 20;
const EVENTS = 60;
// Long enough that no hanging attempt ends while the test looks: the test never waits for it.
const ATTEMPT_TIMEOUT_MS = 30_000;

beforeAll(async () => {
  receiver = await startReceiver();
  workers.start(redis.prefix, { deliveryConcurrency: CONCURRENCY, endpointMaxInFlight: 5, timeoutMs: ATTEMPT_TIMEOUT_MS });
});

it('a receiver that never answers holds at most its cap of slots; the healthy one gets every event meanwhile', async () => {
  const { account } = await createTestAccount(db.pool);
  const partner = await createTestPartner(db.pool, account.id);
  const dead = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.confirmed'], () => 'hang');
  const healthy = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.confirmed']);
  const events = Array.from({ length: EVENTS }, () => bookingConfirmed(account.id, partner));
  // Three times as many deliveries to the dead endpoint as the worker has slots, all queued before the healthy ones'.
  for (const event of events) await queues.publish('booking.confirmed', event);

  await waitFor(
    () => `every event at the healthy endpoint (have ${receiver.received.filter((m) => m.path === healthy.path).length} of ${EVENTS})`,
    async () => receiver.received.filter((message) => message.path === healthy.path).length === EVENTS,
    ATTEMPT_TIMEOUT_MS / 2,
  );
  // The dead endpoint's attempts are all still in flight: at most its cap of them, none finished.
  expect(receiver.hanging()).toBeGreaterThan(0);
  expect(receiver.hanging()).toBeLessThanOrEqual(5);
  const deadDeliveries = await deliveriesOf(db.pool, dead.id);
  expect(deadDeliveries).toHaveLength(EVENTS);
  expect(deadDeliveries.every((delivery) => delivery.status === 'pending' && delivery.attempt_count === 0)).toBe(true);
  expect(new Set(receiver.received.map((message) => message.webhookId))).toEqual(new Set(events.map((event) => event.EventID)));
  // Ends the hanging attempts (connections reset) rather than leave the worker's close waiting for their timeout.
  await receiver.down();
});
