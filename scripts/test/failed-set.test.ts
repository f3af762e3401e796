// The failed set: a job that keeps failing is retried a bounded number of times with backoff, then kept in the failed
// set, listed by the admin CLI and, once the cause is fixed, replayed into exactly one entry.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '@backbone/db';
import { createEventPublisher, eventJobId, type EventPublisher } from '@backbone/publisher';
import { countEntries, entriesOf, orderCompleted, useQueues, useWorkers } from '@backbone/test-apps/metering-worker';
import { createTestAccount, useTestDatabase, useTestRedis, waitFor } from '@backbone/testkit';
import { queueCommands, type ListedFailedJob } from '../admin/queue.commands.js';

const db = useTestDatabase();
const redis = useTestRedis();
const queues = useQueues(redis);
const workers = useWorkers(db, redis);
let publisher: EventPublisher;

// Short backoff so that the bounded retries run out within the test.
const ATTEMPTS = 3;

beforeAll(() => {
  publisher = createEventPublisher({ connection: redis.connection(), prefix: redis.prefix, retry: { attempts: ATTEMPTS, backoffDelayMs: 20 } });
  workers.start();
});
afterAll(() => publisher.close());

const cli = (command: 'failed-jobs' | 'replay-failed', options: Record<string, string | boolean>) =>
  queueCommands[command]!.run({ prefix: redis.prefix, ...options }, { pool: db.pool, redisUrl: redis.redisUrl, queuePrefix: redis.prefix });

/** Makes PostgreSQL refuse every entry whose ExtraInfo mentions 'poison' (a failure the worker cannot get past). */
async function poisonEntries(on: boolean): Promise<void> {
  if (on) {
    await db.pool.query(`CREATE OR REPLACE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.extra_info LIKE '%poison%' THEN RAISE EXCEPTION 'entry refused by the test'; END IF;
        RETURN NEW;
      END $$`);
    await db.pool.query(`CREATE TRIGGER refuse_poison BEFORE INSERT ON usage_entries FOR EACH ROW EXECUTE FUNCTION refuse_poison()`);
  } else {
    await db.pool.query(`DROP TRIGGER refuse_poison ON usage_entries`);
  }
}

async function stateOf(jobId: string) {
  return (await queues.queue().getJob(jobId))?.getState();
}

async function failedJobs(): Promise<ListedFailedJob[]> {
  return ((await cli('failed-jobs', {})) as { Jobs: ListedFailedJob[] }).Jobs;
}

describe('failed set', () => {
  it('a failing job is retried a bounded number of times, kept in the failed set, listed, and replayed into one entry', async () => {
    const { account } = await createTestAccount(db.pool);
    await poisonEntries(true);
    const poisoned = orderCompleted(account.id, 'poison-basket');
    // Healthy events share batches with the poisoned one and must not fail with it.
    const healthy = Array.from({ length: 20 }, (_, i) => orderCompleted(account.id, `basket-${i}`));
    await publisher.publishBulk([poisoned, ...healthy]);

    await waitFor('the poisoned job to fail', async () => (await stateOf(eventJobId(poisoned.payload))) === 'failed');
    await waitFor('the healthy entries', async () => (await countEntries(db.pool, account.id)) === healthy.length);
    const job = (await queues.queue().getJob(eventJobId(poisoned.payload)))!;
    expect(job.attemptsMade).toBe(ATTEMPTS);
    expect(job.failedReason).toBe('entry refused by the test');

    const listed = await failedJobs();
    expect(listed).toEqual([
      {
        Queue: 'platform-events',
        ID: eventJobId(poisoned.payload),
        Name: 'order.completed',
        AttemptsMade: ATTEMPTS,
        Attempts: ATTEMPTS,
        FailedReason: 'entry refused by the test',
        FailedAt: expect.any(String),
        Payload: poisoned.payload,
      },
    ]);
    expect(await cli('failed-jobs', { queue: 'booking-events' })).toEqual({ Count: 0, Jobs: [] });

    await poisonEntries(false);
    expect(await cli('replay-failed', { job: eventJobId(poisoned.payload) })).toEqual({
      Count: 1,
      Replayed: [{ Queue: 'platform-events', ID: eventJobId(poisoned.payload), Name: 'order.completed' }],
    });
    await waitFor('the replayed job to complete', async () => (await stateOf(eventJobId(poisoned.payload))) === 'completed');
    const entries = await entriesOf(db.pool, account.id);
    expect(entries).toHaveLength(healthy.length + 1);
    expect(entries.filter((e) => e.dedupe_key === `event:${poisoned.payload.EventID}`)).toEqual([
      expect.objectContaining({ meter: 'order-completed', extra_info: '{"BasketID":"poison-basket"}' }),
    ]);
    expect(await failedJobs()).toEqual([]);
    // Replaying a job that is no longer failed is an error, and changes nothing.
    await expect(cli('replay-failed', { job: eventJobId(poisoned.payload) })).rejects.toThrow(`No failed job with id ${eventJobId(poisoned.payload)}`);
    expect(await countEntries(db.pool, account.id)).toBe(healthy.length + 1);
  });

  it('replay-failed --all replays every failed job; an unknown account fails at once and counts after the account exists', async () => {
    const { account } = await createTestAccount(db.pool);
    const lateAccountId = randomUUID();
    await poisonEntries(true);
    const poisoned = [orderCompleted(account.id, 'poison-1'), orderCompleted(account.id, 'poison-2')];
    const orphan = orderCompleted(lateAccountId, 'basket-orphan');
    await publisher.publishBulk([...poisoned, orphan]);
    await waitFor('three failed jobs', async () => (await failedJobs()).length === 3);
    const byId = new Map((await failedJobs()).map((job) => [job.ID, job]));
    expect(byId.get(eventJobId(orphan.payload))).toMatchObject({ AttemptsMade: 1, FailedReason: `Unknown account ${lateAccountId}.` });
    for (const event of poisoned) expect(byId.get(eventJobId(event.payload))).toMatchObject({ AttemptsMade: ATTEMPTS });

    await poisonEntries(false);
    await createAccount(db.pool, { id: lateAccountId, name: 'Created late' });
    const replay = (await cli('replay-failed', { all: true })) as { Count: number };
    expect(replay.Count).toBe(3);
    await waitFor('the replayed entries', async () => (await countEntries(db.pool, account.id)) === 2 && (await countEntries(db.pool, lateAccountId)) === 1);
    expect(await failedJobs()).toEqual([]);
  });

  it('the CLI refuses unclear options', async () => {
    await expect(cli('replay-failed', {})).rejects.toThrow('give exactly one of --job <id> or --all');
    await expect(cli('replay-failed', { job: 'x', all: true })).rejects.toThrow('give exactly one of --job <id> or --all');
    await expect(cli('failed-jobs', { queue: 'nope' })).rejects.toThrow('--queue must be one of: platform-events, booking-events');
    await expect(cli('failed-jobs', { limit: '0' })).rejects.toThrow('--limit must be a positive integer');
  });
});
