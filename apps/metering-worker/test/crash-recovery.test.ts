// No loss, no double count when a worker process dies: a worker killed with SIGKILL in the middle of a backlog and
// started again stores every event exactly once; a worker stopped with SIGTERM finishes its active jobs first.
import { beforeAll, describe, expect, it } from 'vitest';
import { createEventPublisher } from '@backbone/publisher';
import { createTestAccount, useTestDatabase, useTestRedis } from '@backbone/testkit';
import { countDistinctEvents, countEntries, mixedEvents, spawnWorker, untilRunning, useQueues, waitFor } from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();
const queues = useQueues(redis);
const BACKLOG = 4_000;

// A killed worker's jobs are redelivered once their lock expires; short locks keep the test short.
const workerEnv = () => ({
  REDIS_URL: redis.redisUrl,
  QUEUE_PREFIX: redis.prefix,
  WORKER_CONCURRENCY: '50',
  WORKER_LOCK_DURATION_MS: '2000',
  WORKER_STALLED_INTERVAL_MS: '1000',
  OUTBOX_RELAY_ENABLED: 'false',
});

async function publishBacklog(accountId: string): Promise<void> {
  const publisher = createEventPublisher({ connection: redis.connection(), prefix: redis.prefix });
  try {
    const events = mixedEvents(accountId, BACKLOG);
    await publisher.publishBulk(events);
    // Publishing part of it again adds nothing.
    await publisher.publishBulk(events.slice(0, 500));
  } finally {
    await publisher.close();
  }
}

async function jobCounts() {
  return queues.queue().getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
}

describe('worker processes that die or stop', () => {
  beforeAll(async () => {
    // Start from an empty queue, whatever an earlier test left.
    await queues.queue().obliterate({ force: true });
  });

  it('SIGKILL in the middle of a backlog, then a restart: entries == distinct events, none failed', async () => {
    const { account } = await createTestAccount(db.pool);
    await queues.queue().obliterate({ force: true });
    await publishBacklog(account.id);
    expect((await jobCounts()).waiting).toBe(BACKLOG);

    const first = spawnWorker(db, workerEnv());
    await untilRunning(first);
    await waitFor('some entries', async () => (await countEntries(db.pool, account.id)) >= 300, 60_000, 10);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    const atKill = await countEntries(db.pool, account.id);
    expect(atKill).toBeLessThan(BACKLOG);
    // Jobs the dead worker held are still active, locked to nobody.
    expect((await jobCounts()).active).toBeGreaterThan(0);

    const second = spawnWorker(db, workerEnv());
    await untilRunning(second);
    await waitFor(
      () => `all ${BACKLOG} entries (have ${atKill}+)`,
      async () => (await countEntries(db.pool, account.id)) >= BACKLOG && (await jobCounts()).completed === BACKLOG,
      120_000,
      100,
    );
    expect(await countEntries(db.pool, account.id)).toBe(BACKLOG);
    expect(await countDistinctEvents(db.pool, account.id)).toBe(BACKLOG);
    expect(await jobCounts()).toEqual({ waiting: 0, active: 0, delayed: 0, completed: BACKLOG, failed: 0 });
    // The jobs that were active at the kill ran again; their first run's entry (if it committed) was not counted twice.
    const completed = await queues.queue().getCompleted(0, -1);
    expect(completed.filter((job) => job.stalledCounter > 0).length).toBeGreaterThan(0);

    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  });

  it('SIGTERM drains: active jobs finish and are recorded before the process exits; the rest waits for the next worker', async () => {
    const { account } = await createTestAccount(db.pool);
    await queues.queue().obliterate({ force: true });
    await publishBacklog(account.id);

    const worker = spawnWorker(db, workerEnv());
    await untilRunning(worker);
    await waitFor('some entries', async () => (await countEntries(db.pool, account.id)) >= 300, 60_000, 10);
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(worker.output()).toContain('shutting down');

    const counts = await jobCounts();
    expect(counts.active).toBe(0);
    expect(counts.failed).toBe(0);
    expect((counts.waiting ?? 0) + (counts.completed ?? 0)).toBe(BACKLOG);
    // Every job it took is completed and stored; nothing it took was left half done.
    expect(await countEntries(db.pool, account.id)).toBe(counts.completed);

    const next = spawnWorker(db, workerEnv());
    await untilRunning(next);
    await waitFor('the rest of the backlog', async () => (await countEntries(db.pool, account.id)) >= BACKLOG, 120_000, 100);
    expect(await countDistinctEvents(db.pool, account.id)).toBe(BACKLOG);
    next.child.kill('SIGTERM');
    expect((await next.exited).code).toBe(0);
  });
});
