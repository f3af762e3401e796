// A slow endpoint's deliveries over its cap wait for its slots, not for the attempt timeout: each slot freed by an
// answer brings a waiting delivery back at once. With a cap of 2, 12 deliveries to an endpoint answering in 200 ms all
// arrive in a few seconds, although a delivery sent back for the cap would otherwise wait until the endpoint's oldest
// attempt in flight could have timed out (120 s here: far from what the deliveries take on a loaded machine).
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
const EVENTS = 12;
const ATTEMPT_TIMEOUT_MS = 120_000;

beforeAll(async () => {
  receiver = await startReceiver();
  workers.start(redis.prefix, { endpointMaxInFlight: 2, timeoutMs: ATTEMPT_TIMEOUT_MS });
});

it("deliveries over a slow endpoint's cap are attempted as its slots free, long before the attempt timeout", async () => {
  const { account } = await createTestAccount(db.pool);
  const partner = await createTestPartner(db.pool, account.id);
  const slow = await createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.confirmed'], () => ({ status: 200, delayMs: 200 }));
  const events = Array.from({ length: EVENTS }, () => bookingConfirmed(account.id, partner));
  const started = Date.now();
  for (const event of events) await queues.publish('booking.confirmed', event);

  await waitFor(
    () => `every event at the slow endpoint (have ${receiver.received.filter((m) => m.path === slow.path).length} of ${EVENTS})`,
    async () => receiver.received.filter((message) => message.path === slow.path).length === EVENTS,
    ATTEMPT_TIMEOUT_MS / 3,
  );
  // Six rounds of two 200 ms attempts, with room for a loaded machine; far from the 120 s the cap's delay allows.
  expect(Date.now() - started).toBeLessThan(ATTEMPT_TIMEOUT_MS / 3);
  const deliveries = await deliveriesOf(db.pool, slow.id);
  await waitFor('every delivery recorded delivered', async () => (await deliveriesOf(db.pool, slow.id)).every((delivery) => delivery.status === 'delivered'));
  expect(deliveries).toHaveLength(EVENTS);
  // Waiting for a slot counts no attempt: one each.
  expect((await deliveriesOf(db.pool, slow.id)).map((delivery) => delivery.attempt_count)).toEqual(Array(EVENTS).fill(1));
  expect(new Set(receiver.received.map((message) => message.webhookId))).toEqual(new Set(events.map((event) => event.EventID)));
});
