// The webhook worker as its own process, killed with SIGKILL in the middle of a backlog and started again: every event
// reaches every endpoint at least once, and a receiver dropping repeats by webhook-id sees each event exactly once.
// SIGTERM lets the attempts in flight finish before the process exits.
import { expect, it } from 'vitest';
import { createTestAccount, useTestDatabase, useTestRedis } from '@backbone/testkit';
import { bookingConfirmed, createTestEndpoint, createTestPartner, spawnWebhookWorker, startReceiver, untilRunning, useQueues, waitFor } from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();
const queues = useQueues(redis);
const EVENTS = 300;

// A killed worker's jobs are redelivered once their lock expires; short locks keep the test short.
const workerEnv = () => ({
  REDIS_URL: redis.redisUrl,
  QUEUE_PREFIX: redis.prefix,
  WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  WEBHOOK_DELIVERY_CONCURRENCY: '20',
  WEBHOOK_RETRY_DELAYS_MS: '200,200,200',
  WORKER_LOCK_DURATION_MS: '2000',
  WORKER_STALLED_INTERVAL_MS: '1000',
});

// Two worker starts and a backlog of 900 deliveries: seconds on a quiet machine, minutes on a loaded one (the timeout below).
it('SIGKILL during a backlog, then a restart: every event at every endpoint at least once, each once after dropping repeats by webhook-id', async () => {
  const { account } = await createTestAccount(db.pool);
  const partner = await createTestPartner(db.pool, account.id);
  const receiver = await startReceiver();
  // After 100 deliveries the receiver holds its answers until the kill: the worker dies in the middle of the backlog,
  // with attempts in flight, however fast or slow the machine runs it.
  let holding = true;
  const holdAfter100 = () => (holding && receiver.received.length >= 100 ? 'hang' : { status: 200 });
  const endpoints = await Promise.all(
    Array.from({ length: 3 }, () => createTestEndpoint(db.pool, receiver, account.id, partner, ['booking.confirmed'], holdAfter100)),
  );
  const events = Array.from({ length: EVENTS }, () => bookingConfirmed(account.id, partner));
  for (const event of events) await queues.publish('booking.confirmed', event);

  const first = spawnWebhookWorker(db, workerEnv());
  await untilRunning(first);
  await waitFor('some deliveries, and attempts held', async () => receiver.received.length >= 100 && receiver.hanging() > 0, 120_000, 10);
  first.child.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');
  holding = false;
  const atKill = receiver.received.length;
  expect(atKill).toBeLessThan(EVENTS * endpoints.length);

  const second = spawnWebhookWorker(db, workerEnv());
  await untilRunning(second);
  const distinct = (path: string) => new Set(receiver.received.filter((message) => message.path === path).map((message) => message.webhookId));
  await waitFor(
    () => `every event at every endpoint (${endpoints.map((e) => distinct(e.path).size).join(', ')} of ${EVENTS})`,
    async () => endpoints.every((endpoint) => distinct(endpoint.path).size === EVENTS),
    120_000,
    100,
  );
  const eventIds = new Set(events.map((event) => event.EventID));
  for (const endpoint of endpoints) expect(distinct(endpoint.path)).toEqual(eventIds);
  expect(receiver.rejected).toEqual([]);
  // An attempt the killed worker made before it could record it reached the receiver, yet its row stays pending until
  // the restarted worker takes the stalled job again (lock expiry, then the stalled check) and records its repeat.
  const statuses = async () =>
    (
      await db.pool.query<{ status: string; n: number }>(
        `SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE account_id = $1 GROUP BY status ORDER BY status`,
        [account.id],
      )
    ).rows;
  let latest: Awaited<ReturnType<typeof statuses>> = [];
  await waitFor(
    () => `every delivery recorded as delivered (${JSON.stringify(latest)})`,
    async () => {
      latest = await statuses();
      return latest.length === 1 && latest[0]!.status === 'delivered';
    },
    120_000,
    100,
  );
  expect(await statuses()).toEqual([{ status: 'delivered', n: EVENTS * endpoints.length }]);

  second.child.kill('SIGTERM');
  expect(await second.exited).toEqual({ code: 0, signal: null });
  expect(second.output()).toContain('shutting down');
}, 300_000);
