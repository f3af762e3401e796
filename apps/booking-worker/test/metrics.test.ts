// The booking worker's gauges: at every scrape it reads a known backlog of each catalog queue (waiting, delayed, failed,
// the oldest waiting job's age), the outbox's unrelayed rows and the disabled webhook endpoints; beside them, the
// metering worker (in-process, the platform-events consumer) counts its jobs by outcome and its built-in meter entries.
// And the booking worker as its own process serves the gauges on its METRICS_PORT.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUES, WEBHOOK_DELIVERIES_QUEUE } from '@backbone/contracts';
import { createPartner } from '@backbone/db';
import { registry, startMetricsServer, type MetricsServer } from '@backbone/metrics';
import { Queue } from 'bullmq';
import { scrapeMetrics, type Scrape } from '@backbone/metrics/scrape';
import { createTestAccount, useTestDatabase, useTestRedis, waitFor } from '@backbone/testkit';
import { collectScrapeGauges, MONITORED_QUEUES, type ScrapeGauges } from '../src/scrape-gauges.js';
import { orderCompleted, silentLogger, spawnWorker, untilRunning, useQueues, useWorkers } from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();
const queues = useQueues(redis);
const workers = useWorkers(db, redis);

let metrics: MetricsServer;
let gauges: ScrapeGauges;
let webhookQueue: Queue;
const scrape = () => scrapeMetrics(`${metrics.url}/metrics`);

beforeAll(async () => {
  gauges = collectScrapeGauges({ pool: db.pool, connection: redis.connection(), prefix: redis.prefix, logger: silentLogger });
  metrics = await startMetricsServer({ port: 0, host: '127.0.0.1', registry });
  webhookQueue = new Queue(WEBHOOK_DELIVERIES_QUEUE, { connection: redis.connection(), prefix: redis.prefix });
});

afterAll(async () => {
  await metrics.close();
  await gauges.close();
  await webhookQueue.close();
});

const jobs = (s: Scrape, queue: string, state: string) => s.value('backbone_queue_jobs', { queue, state });

describe('queue gauges', () => {
  it('report every catalog queue, webhook deliveries included, with 0 when empty', async () => {
    const s = await scrape();
    expect(MONITORED_QUEUES).toEqual(['platform-events', 'booking-events', 'webhook-deliveries']);
    for (const queue of MONITORED_QUEUES) {
      for (const state of ['waiting', 'active', 'delayed', 'failed']) expect(s.samples('backbone_queue_jobs', { queue, state })).toHaveLength(1);
      expect(s.value('backbone_queue_oldest_job_age_seconds', { queue })).toBe(0);
    }
  });

  it('reflect a known backlog: waiting and delayed jobs, and the age of the oldest waiting one', async () => {
    const bookingEvents = queues.queue(QUEUES.bookingEvents);
    // Added two minutes ago (BullMQ takes the creation time as an option), then two more now.
    await bookingEvents.add('booking.created', { n: 1 }, { timestamp: Date.now() - 120_000 });
    await bookingEvents.add('booking.created', { n: 2 });
    await bookingEvents.add('booking.created', { n: 3 });
    await bookingEvents.add('booking.created', { n: 4 }, { delay: 600_000 });
    await webhookQueue.add('deliver', { DeliveryID: randomUUID(), AccountID: randomUUID() });

    const s = await scrape();
    expect(jobs(s, 'booking-events', 'waiting')).toBe(3);
    expect(jobs(s, 'booking-events', 'delayed')).toBe(1);
    expect(jobs(s, 'webhook-deliveries', 'waiting')).toBe(1);
    expect(jobs(s, 'platform-events', 'waiting')).toBe(0);
    const oldest = s.value('backbone_queue_oldest_job_age_seconds', { queue: 'booking-events' });
    expect(oldest).toBeGreaterThanOrEqual(120);
    expect(oldest).toBeLessThan(180);
    await bookingEvents.obliterate({ force: true });
    await webhookQueue.obliterate({ force: true });
    expect(jobs(await scrape(), 'booking-events', 'waiting')).toBe(0);
  });

  it('count failed jobs in the failed set and in jobs processed by outcome, completed ones too, and the built-in meter entries written', async () => {
    const { account } = await createTestAccount(db.pool);
    const before = await scrape();
    workers.start({ concurrency: 5 });
    const platformEvents = queues.queue(QUEUES.platformEvents);
    const good = orderCompleted(account.id);
    await platformEvents.add(good.name, good.payload, { jobId: good.payload.EventID });
    // An account that does not exist: failed for good at once (no retry can make it appear).
    const orphan = orderCompleted(randomUUID());
    await platformEvents.add(orphan.name, orphan.payload, { jobId: orphan.payload.EventID, attempts: 3 });
    let after = before;
    await waitFor(
      () => 'one completed and one failed job on platform-events',
      async () => {
        after = await scrape();
        const processed = (outcome: string) =>
          after.value('backbone_jobs_processed_total', { queue: 'platform-events', outcome }) -
          before.value('backbone_jobs_processed_total', { queue: 'platform-events', outcome });
        return processed('completed') === 1 && processed('failed') === 1;
      },
      20_000,
      100,
    );
    expect(jobs(after, 'platform-events', 'failed')).toBe(1);
    expect(after.value('backbone_jobs_processed_total', { queue: 'platform-events', outcome: 'retried' })).toBe(
      before.value('backbone_jobs_processed_total', { queue: 'platform-events', outcome: 'retried' }),
    );
    expect(
      after.value('backbone_usage_entries_written_total', { source: 'built_in_meter' }) -
        before.value('backbone_usage_entries_written_total', { source: 'built_in_meter' }),
    ).toBe(1);
  });
});

describe('outbox and webhook endpoint gauges', () => {
  it('report the unrelayed outbox rows by type and the oldest one’s age; relayed rows do not count', async () => {
    const accountId = (await createTestAccount(db.pool)).account.id;
    const insert = (type: string, ageSeconds: number, sent: boolean) =>
      db.pool.query(
        `INSERT INTO outbox_events (account_id, event_id, type, payload, created_at, sent_at)
         VALUES ($1, $2, $3, '{}', now() - make_interval(secs => $4), CASE WHEN $5 THEN now() END)`,
        [accountId, randomUUID(), type, ageSeconds, sent],
      );
    await insert('booking.created', 300, false);
    await insert('booking.created', 10, false);
    await insert('booking.cancelled', 5, false);
    await insert('booking.created', 9000, true);
    const s = await scrape();
    expect(s.value('backbone_outbox_backlog', { type: 'booking.created' })).toBe(2);
    expect(s.value('backbone_outbox_backlog', { type: 'booking.cancelled' })).toBe(1);
    const age = s.value('backbone_outbox_oldest_event_age_seconds');
    expect(age).toBeGreaterThanOrEqual(300);
    expect(age).toBeLessThan(400);
    await db.pool.query('UPDATE outbox_events SET sent_at = now()');
    const relayed = await scrape();
    expect(relayed.value('backbone_outbox_backlog')).toBe(0);
    expect(relayed.value('backbone_outbox_oldest_event_age_seconds')).toBe(0);
  });

  it('report the disabled webhook endpoints', async () => {
    expect((await scrape()).value('backbone_webhook_endpoints_disabled')).toBe(0);
    const accountId = (await createTestAccount(db.pool)).account.id;
    const partner = await createPartner(db.pool, accountId, 'Metrics partner');
    const insert = (disabled: boolean) =>
      db.pool.query(
        `INSERT INTO webhook_endpoints (account_id, partner_id, url, event_types, secret, disabled_at)
         VALUES ($1, $2, 'https://example.com/hook', ARRAY['booking.created'], 'whsec_x', CASE WHEN $3 THEN now() END)`,
        [accountId, partner.id, disabled],
      );
    await insert(true);
    await insert(true);
    await insert(false);
    expect((await scrape()).value('backbone_webhook_endpoints_disabled')).toBe(2);
  });
});

describe('the worker process', () => {
  it('serves its metrics on METRICS_PORT, queue and outbox gauges included, and stops it on SIGTERM', async () => {
    const worker = spawnWorker(db, { REDIS_URL: redis.redisUrl, QUEUE_PREFIX: redis.prefix, OUTBOX_RELAY_ENABLED: 'false', HOLD_SWEEPER_ENABLED: 'false' });
    await untilRunning(worker);
    const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)","msg":"metrics listening"/.exec(worker.output())?.[1];
    expect(url, worker.output()).toBeDefined();
    const s = await scrapeMetrics(`${url}/metrics`);
    for (const queue of MONITORED_QUEUES) expect(s.samples('backbone_queue_jobs', { queue, state: 'waiting' })).toHaveLength(1);
    expect(s.family('backbone_outbox_oldest_event_age_seconds')?.type).toBe('GAUGE');
    expect(s.family('backbone_process_cpu_seconds_total')?.type).toBe('COUNTER');
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`${url}/metrics`)).rejects.toThrow();
  });
});
