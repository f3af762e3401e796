// No loss, no double count when Redis goes away under a running worker: a redis-server of this test's own (AOF,
// fsync always) is killed and started again in the middle of a backlog; the worker reconnects and every event is
// stored exactly once.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES } from '@backbone/contracts';
import { createEventPublisher, createRedisConnection } from '@backbone/publisher';
import { createTestAccount, freePort, useTestDatabase } from '@backbone/testkit';
import { countDistinctEvents, countEntries, mixedEvents, spawnWorker, startOwnRedis, untilRunning, waitFor, type OwnRedis } from './support.js';

const db = useTestDatabase();
const BACKLOG = 4_000;
const PREFIX = 'restart';
let dir: string;
let redis: OwnRedis;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'backbone-redis-'));
  redis = await startOwnRedis(await freePort(), dir);
});
afterAll(async () => {
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('Redis restarted while the worker runs', () => {
  it('the worker reconnects and stores every event once: entries == distinct events, none failed', async () => {
    const { account } = await createTestAccount(db.pool);

    const events = mixedEvents(account.id, BACKLOG);
    const publisher = createEventPublisher({ redisUrl: redis.url, prefix: PREFIX });
    await publisher.publishBulk(events);
    await publisher.close();

    const worker = spawnWorker(db, {
      REDIS_URL: redis.url,
      QUEUE_PREFIX: PREFIX,
      // Few slots, so that the backlog is still far from drained when Redis goes away, even on a busy machine.
      WORKER_CONCURRENCY: '8',
      WORKER_LOCK_DURATION_MS: '2000',
      WORKER_STALLED_INTERVAL_MS: '1000',
    });
    await untilRunning(worker);
    await waitFor('some entries', async () => (await countEntries(db.pool, account.id)) >= 100, 60_000, 10);
    await redis.restart();
    const afterRestart = await countEntries(db.pool, account.id);
    expect(afterRestart).toBeLessThan(BACKLOG);

    const connection = createRedisConnection(redis.url, 'consumer');
    const queue = new Queue(QUEUES.platformEvents, { connection, prefix: PREFIX });
    try {
      await waitFor(
        () => `all ${BACKLOG} entries; worker output:\n${worker.output().slice(-3000)}`,
        async () => (await countEntries(db.pool, account.id)) >= BACKLOG && (await queue.getJobCounts('completed')).completed === BACKLOG,
        120_000,
        100,
      );
      expect(await countEntries(db.pool, account.id)).toBe(BACKLOG);
      expect(await countDistinctEvents(db.pool, account.id)).toBe(BACKLOG);
      expect(await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed')).toEqual({
        waiting: 0,
        active: 0,
        delayed: 0,
        completed: BACKLOG,
        failed: 0,
      });
      expect(worker.child.exitCode).toBeNull();
    } finally {
      await queue.close();
      connection.disconnect();
    }
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
  });
});
