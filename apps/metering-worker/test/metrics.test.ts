// The metering worker as its own process serves its metrics on METRICS_PORT: the jobs it processed by outcome, the
// built-in meter entries it wrote, the entries its usage folder added to the rollups and the process metrics. The queue, outbox and webhook-endpoint gauges are the
// booking worker's (apps/booking-worker/test/metrics.test.ts): however many metering replicas run, they add no series
// of their own to those.
import { describe, expect, it } from 'vitest';
import { scrapeMetrics, type Scrape } from '@backbone/metrics/scrape';
import { createEventPublisher } from '@backbone/publisher';
import { createTestAccount, useTestDatabase, useTestRedis } from '@backbone/testkit';
import { countEntries, orderCompleted, spawnWorker, untilRunning, waitFor } from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();

describe('the worker process', () => {
  it('serves its jobs, entries and fold counters and the process metrics on METRICS_PORT, no queue gauges, and stops it on SIGTERM', async () => {
    const { account } = await createTestAccount(db.pool);
    const worker = spawnWorker(db, { REDIS_URL: redis.redisUrl, QUEUE_PREFIX: redis.prefix });
    await untilRunning(worker);
    const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)","msg":"metrics listening"/.exec(worker.output())?.[1];
    expect(url, worker.output()).toBeDefined();

    const publisher = createEventPublisher({ connection: redis.connection(), prefix: redis.prefix });
    try {
      const event = orderCompleted(account.id);
      await publisher.publish(event.name, event.payload);
    } finally {
      await publisher.close();
    }
    await waitFor('the entry', async () => (await countEntries(db.pool, account.id)) === 1);
    let s: Scrape | undefined;
    await waitFor('the completed job counted', async () => {
      s = await scrapeMetrics(`${url}/metrics`);
      return s.value('backbone_jobs_processed_total', { queue: 'platform-events', outcome: 'completed' }) === 1;
    });
    expect(s!.value('backbone_usage_entries_written_total', { source: 'built_in_meter' })).toBe(1);
    expect(s!.family('backbone_process_cpu_seconds_total')?.type).toBe('COUNTER');
    // Its usage folder adds the entry to the rollups within a few passes.
    const rolledUp = async () =>
      (await db.pool.query<{ n: number }>('SELECT COALESCE(sum(event_count), 0)::int AS n FROM usage_rollups_daily WHERE account_id = $1', [account.id]))
        .rows[0]!.n;
    await waitFor('the entry folded into the rollups', async () => (await rolledUp()) === 1);
    await waitFor('the fold counted', async () => {
      s = await scrapeMetrics(`${url}/metrics`);
      return s.value('backbone_usage_entries_folded_total') === 1;
    });
    expect(s!.value('backbone_usage_folds_total', { result: 'folded' })).toBeGreaterThanOrEqual(1);
    for (const gauge of ['backbone_queue_jobs', 'backbone_queue_oldest_job_age_seconds', 'backbone_outbox_backlog', 'backbone_webhook_endpoints_disabled']) {
      expect(s!.family(gauge), gauge).toBeUndefined();
    }

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`${url}/metrics`)).rejects.toThrow();
  });
});
