// No loss, no double count when a worker process dies: a worker killed with SIGKILL in the middle of a backlog and
// started again stores every event exactly once; a worker stopped with SIGTERM finishes its active jobs first.
import { beforeAll, describe, expect, it } from 'vitest';
import { createEventPublisher, type PublishableEvent } from '@backbone/publisher';
import { createTestAccount, useTestDatabase, useTestRedis } from '@backbone/testkit';
import { countDistinctEvents, countEntries, mixedEvents, spawnWorker, untilRunning, useQueues, waitFor } from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();
const queues = useQueues(redis);
const BACKLOG = 4_000;
/** The event whose write the test holds back, so the kill lands in the middle of the backlog. */
const BRAKE_AT = 1_500;

// A killed worker's jobs are redelivered once their lock expires; short locks keep the test short.
const workerEnv = () => ({
  REDIS_URL: redis.redisUrl,
  QUEUE_PREFIX: redis.prefix,
  WORKER_CONCURRENCY: '50',
  WORKER_LOCK_DURATION_MS: '2000',
  WORKER_STALLED_INTERVAL_MS: '1000',
});

async function publishBacklog(accountId: string): Promise<PublishableEvent[]> {
  const publisher = createEventPublisher({ connection: redis.connection(), prefix: redis.prefix });
  try {
    const events = mixedEvents(accountId, BACKLOG);
    await publisher.publishBulk(events);
    // Publishing part of it again adds nothing.
    await publisher.publishBulk(events.slice(0, 500));
    return events;
  } finally {
    await publisher.close();
  }
}

/**
 * The worker writes thousands of entries a second and could finish the backlog before a signal lands. This holds, in
 * an open transaction, an entry with the dedupe key of `event`: the worker's write of it waits on that (with the jobs
 * of its batch active) while the jobs before it complete. `release` rolls the entry back and lets that write go on.
 */
async function holdWriteOf(accountId: string, event: PublishableEvent) {
  const client = await db.pool.connect();
  await client.query('BEGIN');
  await client.query(`INSERT INTO usage_entries (account_id, meter, usage, occurred_at, dedupe_key) VALUES ($1, 'brake', 1, now(), $2)`, [
    accountId,
    `event:${event.payload.EventID.toLowerCase()}`,
  ]);
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return {
    untilWaitedOn: () =>
      waitFor('a write of the worker waiting on the held entry', async () => {
        const waiting = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [
          rows[0]!.pid,
        ]);
        return waiting.rows[0]!.n > 0;
      }),
    async release() {
      await client.query('ROLLBACK');
      client.release();
    },
  };
}

async function jobCounts() {
  return queues.queue().getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
}

// Two worker starts and a backlog of 4,000 events: about 6 s on a quiet machine, over a minute on a loaded one.
describe('worker processes that die or stop', { timeout: 300_000 }, () => {
  beforeAll(async () => {
    // Start from an empty queue, whatever an earlier test left.
    await queues.queue().obliterate({ force: true });
  });

  it('SIGKILL in the middle of a backlog, then a restart: entries == distinct events, none failed', async () => {
    const { account } = await createTestAccount(db.pool);
    await queues.queue().obliterate({ force: true });
    const backlog = await publishBacklog(account.id);
    expect((await jobCounts()).waiting).toBe(BACKLOG);

    const brake = await holdWriteOf(account.id, backlog[BRAKE_AT]!);
    let atKill: number;
    try {
      const first = spawnWorker(db, workerEnv());
      await untilRunning(first);
      await brake.untilWaitedOn();
      first.child.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
      atKill = await countEntries(db.pool, account.id);
      expect(atKill).toBeGreaterThan(0);
      expect(atKill).toBeLessThan(BACKLOG);
      // Jobs the dead worker held are still active, locked to nobody.
      expect((await jobCounts()).active).toBeGreaterThan(0);
    } finally {
      // The dead worker's waiting write commits now, so the jobs of its batch run again after a write that counted:
      // the double count this test must not see.
      await brake.release();
    }

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
    const backlog = await publishBacklog(account.id);

    const brake = await holdWriteOf(account.id, backlog[BRAKE_AT]!);
    const worker = spawnWorker(db, workerEnv());
    try {
      await untilRunning(worker);
      await brake.untilWaitedOn();
      worker.child.kill('SIGTERM');
      // Draining: the active jobs (those waiting on the brake among them) must finish before the process may exit.
      await waitFor('the worker to start shutting down', () => Promise.resolve(worker.output().includes('shutting down')));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(worker.child.exitCode).toBeNull();
    } finally {
      await brake.release();
    }
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
