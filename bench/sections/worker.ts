// Metering worker: time to drain a backlog of 100,000 built-in events into stored usage entries, next to BullMQ's
// own no-op processing of the same backlog on the same Redis with the same concurrency.
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { QUEUES } from '@backbone/contracts';
import { createEventPublisher, jobOptionsFor, type PublishableEvent } from '@backbone/publisher';
import { createBenchAccount } from '../lib/fixtures.js';
import { startProcess, tail, type ManagedProcess } from '../lib/processes.js';
import { medianBy } from '../lib/load.js';
import { fmt, type Row, type Section } from '../lib/report.js';
import { ceilingBundle } from '../lib/build.js';
import type { BenchContext } from '../lib/context.js';
import { clearPrefix } from '../lib/infra.js';

const CHUNK = 5_000;
const DRAIN_TIMEOUT_MS = 300_000;
const NOOP_PREFIX = 'bench-noop';
const WORKER_PREFIX = 'bench-worker';

function events(accountId: string, count: number): PublishableEvent[] {
  const now = Math.floor(Date.now() / 1000);
  return Array.from({ length: count }, (_, i): PublishableEvent => {
    const envelope = { EventID: randomUUID(), AccountID: accountId, OccurredAt: now - (i % 86_400) };
    if (i % 3 === 0) return { name: 'order.completed', payload: { ...envelope, BasketID: `basket-${i}` } };
    if (i % 3 === 1) return { name: 'waitlist.notified', payload: { ...envelope, WaitlistID: `wl-${i}`, MultiBookingID: 100_000 + i } };
    return { name: 'workflow-email.sent', payload: envelope };
  });
}

async function waitFor(what: string, proc: ManagedProcess, check: () => Promise<boolean>, timeoutMs: number, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exited()) throw new Error(`${proc.name} exited while waiting for ${what}. Last log lines:\n${tail(proc.logFile)}`);
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what} (${proc.name}). Last log lines:\n${tail(proc.logFile)}`);
}

async function pending(queue: Queue): Promise<number> {
  const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

interface Drain {
  seconds: number;
  perSecond: number;
  failed: number;
}

/** Pauses the queue, fills it, starts the consumer, waits until it is connected, then resumes and times `done`. */
async function timeDrain(
  ctx: BenchContext,
  queue: Queue,
  fill: () => Promise<void>,
  start: () => ManagedProcess,
  done: () => Promise<boolean>,
): Promise<Drain & { proc: ManagedProcess }> {
  await queue.pause();
  await fill();
  const backlog = await pending(queue);
  if (backlog !== ctx.workerJobs) throw new Error(`expected a backlog of ${ctx.workerJobs} jobs, found ${backlog}`);
  const proc = start();
  try {
    await waitFor('the worker to connect', proc, async () => (await queue.getWorkersCount()) > 0, 60_000, 100);
    const started = process.hrtime.bigint();
    await queue.resume();
    await waitFor('the backlog to drain', proc, done, DRAIN_TIMEOUT_MS);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const failed = await queue.getFailedCount();
    return { seconds, perSecond: ctx.workerJobs / seconds, failed, proc };
  } catch (error) {
    await proc.stop();
    throw error;
  }
}

/** Alternating rounds of the no-op and ours, as in the HTTP sections: one drain per side can land on a noisy spell. */
const ROUNDS = 3;

interface Round {
  noop: Drain;
  ours: Drain & { stored: number; left: number };
  ratio: number;
}

export async function workerSection(ctx: BenchContext): Promise<Section> {
  const redis = new Redis(ctx.redisUrl, { maxRetriesPerRequest: null });
  await clearPrefix(redis, NOOP_PREFIX);
  await clearPrefix(redis, WORKER_PREFIX);
  // Booking events from the partner section must not give the worker process (if it relays the outbox) extra work.
  await ctx.pool.query('UPDATE outbox_events SET sent_at = now() WHERE sent_at IS NULL');

  const noopQueue = new Queue(QUEUES.platformEvents, { connection: redis, prefix: NOOP_PREFIX });
  const workerQueue = new Queue(QUEUES.platformEvents, { connection: redis, prefix: WORKER_PREFIX });
  const publisher = createEventPublisher({ redisUrl: ctx.redisUrl, prefix: WORKER_PREFIX });
  const rounds: Round[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      // Each round has its own account and events (fresh EventIDs, hence fresh job ids and dedupe keys), and starts
      // with empty queues and a checkpoint, so no side inherits the other's leftovers or the WAL flushes they caused.
      const accountId = await createBenchAccount(ctx.pool, `bench metering worker ${round}`, 'UTC');
      const backlog = events(accountId, ctx.workerJobs);
      await clearPrefix(redis, NOOP_PREFIX);
      await clearPrefix(redis, WORKER_PREFIX);
      await ctx.pool.query('CHECKPOINT');

      ctx.log(`worker round ${round}/${ROUNDS}: BullMQ no-op baseline, ${fmt.int(ctx.workerJobs)} jobs, concurrency ${ctx.workerConcurrency}`);
      const noop = await timeDrain(
        ctx,
        noopQueue,
        async () => {
          for (let i = 0; i < backlog.length; i += CHUNK) {
            await noopQueue.addBulk(backlog.slice(i, i + CHUNK).map((e) => ({ name: e.name, data: e.payload, opts: jobOptionsFor(e.name, e.payload) })));
          }
        },
        () =>
          startProcess({
            name: 'bullmq-noop-worker',
            entry: ceilingBundle('bullmq-noop-worker'),
            cwd: ctx.root,
            logDir: ctx.tmpDir,
            env: { REDIS_URL: ctx.redisUrl, QUEUE_PREFIX: NOOP_PREFIX, WORKER_CONCURRENCY: String(ctx.workerConcurrency) },
          }),
        async () => (await pending(noopQueue)) === 0,
      );
      await noop.proc.stop();
      ctx.log(`  no-op drained in ${noop.seconds.toFixed(1)} s (${fmt.int(noop.perSecond)}/s)`);

      await ctx.pool.query('CHECKPOINT');
      const count = async () =>
        Number((await ctx.pool.query<{ n: string }>('SELECT count(*) AS n FROM usage_entries WHERE account_id = $1', [accountId])).rows[0]!.n);
      const ours = await timeDrain(
        ctx,
        workerQueue,
        async () => {
          for (let i = 0; i < backlog.length; i += CHUNK) await publisher.publishBulk(backlog.slice(i, i + CHUNK));
        },
        () =>
          startProcess({
            name: 'metering-worker',
            entry: 'apps/metering-worker/dist/main.js',
            cwd: ctx.root,
            logDir: ctx.tmpDir,
            env: {
              DATABASE_URL: ctx.databaseUrl,
              REDIS_URL: ctx.redisUrl,
              QUEUE_PREFIX: WORKER_PREFIX,
              LOG_LEVEL: ctx.logLevel,
              WORKER_CONCURRENCY: String(ctx.workerConcurrency),
            },
          }),
        async () => (await count()) >= ctx.workerJobs,
      );
      const stored = await count();
      const left = await pending(workerQueue);
      await ours.proc.stop();
      ctx.log(`  metering worker drained in ${ours.seconds.toFixed(1)} s (${fmt.int(ours.perSecond)}/s), ${stored} stored`);
      rounds.push({ noop, ours: { ...ours, stored, left }, ratio: ours.perSecond / noop.perSecond });
    }
  } finally {
    await publisher.close();
    await noopQueue.close();
    await workerQueue.close();
    await clearPrefix(redis, NOOP_PREFIX);
    await clearPrefix(redis, WORKER_PREFIX);
    redis.disconnect();
  }

  const median = medianBy(rounds, (r) => r.ratio);
  const allStored = rounds.every((r) => r.ours.stored === ctx.workerJobs && r.ours.failed === 0);
  const rows: Row[] = [
    {
      metric: `Drain ${fmt.int(ctx.workerJobs)} events (concurrency ${ctx.workerConcurrency}): events/s`,
      ours: fmt.int(median.ours.perSecond),
      ceiling: fmt.int(median.noop.perSecond),
      ratio: `${fmt.pct(median.ratio)} (rounds ${rounds.map((r) => fmt.pct(r.ratio)).join(', ')})`,
      target: '>= 50% of BullMQ no-op',
      pass: median.ratio >= 0.5 && allStored,
    },
    { metric: 'Drain time, s', ours: median.ours.seconds.toFixed(1), ceiling: median.noop.seconds.toFixed(1) },
    {
      metric: 'Stored entries = distinct events; failed jobs (every round)',
      ours: rounds.map((r) => `${fmt.int(r.ours.stored)} = ${fmt.int(ctx.workerJobs)}; ${r.ours.failed} failed, ${r.ours.left} left`).join(' / '),
      ceiling: `${rounds.reduce((sum, r) => sum + r.noop.failed, 0)} failed`,
      target: 'equal, 0 failed',
      pass: allStored,
    },
  ];
  return {
    title: 'Metering worker (issue 3)',
    rows,
    method: [
      `A backlog of ${fmt.int(ctx.workerJobs)} platform events (a third each of order.completed, waitlist.notified, workflow-email.sent) is put on a paused queue; the consumer is started, and the clock runs from resuming the queue until the work is done.`,
      `${ROUNDS} rounds alternating the no-op and ours, each with its own account and events, empty queues and a CHECKPOINT before each drain; the round with the median ratio is reported, every round's ratio in brackets (single drains of the same side swung by a third between runs).`,
      'Ceiling: bench/ceilings/bullmq-noop-worker.ts, a BullMQ Worker with an empty processor, same concurrency, same job options (jobOptionsFor: account.EventID job ids, kept completed and failed jobs) on the same Redis; done = no job waiting or active.',
      'Ours: apps/metering-worker as its own process (validation, handler, usage entry with rollups and the EventID dedupe key); done = all entries stored in usage_entries.',
    ],
  };
}
