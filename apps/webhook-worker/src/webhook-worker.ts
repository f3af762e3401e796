// The two BullMQ workers of webhook delivery. The fan-out worker consumes booking events and turns each into one
// delivery row per matching endpoint, then one `deliver` job per pending delivery. The delivery worker makes one
// attempt per run of a job and reschedules the same job for the next one: the retry schedule lives here and in
// PostgreSQL, not in the job's options, so a replayed delivery (a fresh job added by the partner API) retries alike.
import { DelayedError, Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import {
  QUEUES,
  WEBHOOK_DELIVERIES_QUEUE,
  WEBHOOK_DELIVERY_JOB,
  WEBHOOK_EVENT_TYPES,
  type JobPayloads,
  type WebhookDeliveryJob,
  type WebhookEventType,
} from '@backbone/contracts';
import {
  createGroupCommit,
  failWebhookDelivery,
  fanOutWebhookEvents,
  findWebhookDeliveryTargets,
  recordWebhookAttempts,
  type Pool,
  type WebhookAttemptToRecord,
  type WebhookDeliveryToRead,
  type WebhookEventToFanOut,
} from '@backbone/db';
import { countJobProcessed, countWebhookDelivery } from '@backbone/metrics';
import { validateEvent, webhookDeliveryJobOptions } from '@backbone/publisher';
import { createEndpointSlots } from './endpoint-slots.js';
import type { WebhookSender } from './send-webhook.js';

export interface WebhookWorkerOptions {
  /** A consumer connection (maxRetriesPerRequest: null); BullMQ duplicates it for its blocking reads. */
  connection: Redis;
  /** A producer connection for adding delivery jobs. */
  producer: Redis;
  prefix: string;
  pool: Pool;
  sender: WebhookSender;
  logger: Logger;
  deliveryConcurrency: number;
  fanOutConcurrency: number;
  endpointMaxInFlight: number;
  /** Total time of one attempt; a job over its endpoint's cap waits at most this long (and up to a fifth more). */
  attemptTimeoutMs: number;
  /** Delay before each retry; a run makes one attempt more than there are delays. */
  retryDelaysMs: readonly number[];
  disableAfterMs: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  maxStalledCount?: number;
}

export interface WebhookWorker {
  /** The BullMQ workers of each queue (several, each with a share of the concurrency). */
  fanOut: Worker[];
  delivery: Worker[];
  /** Stops taking jobs and waits for the active ones to finish. */
  close(): Promise<void>;
}

/** A job over its endpoint's in-flight cap waits at least this long before it looks again. */
const BUSY_ENDPOINT_MIN_DELAY_MS = 1000;
const MAX_WAITING_FOR_SLOT = 10_000;
/** Most jobs one BullMQ worker runs at once (workersFor). */
const WORKER_SHARE = 25;
// A statement that fails for one of its items is made again item by item, so the others do not fail with it.
const GROUP_COMMIT = { maxBatchSize: 200, maxConcurrentBatches: 4, retryFailedBatchItemByItem: true } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `delay` varied by up to 20% either way, so deliveries that failed together do not all come back together. */
export function withJitter(delay: number): number {
  return Math.round(delay * (0.8 + Math.random() * 0.4));
}

export function startWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { pool, sender, logger } = options;
  const deliveries = new Queue<WebhookDeliveryJob>(WEBHOOK_DELIVERIES_QUEUE, { connection: options.producer, prefix: options.prefix });
  deliveries.on('error', (err) => logger.warn({ err }, 'delivery queue connection error'));
  const workerOptions = {
    connection: options.connection,
    prefix: options.prefix,
    ...(options.lockDurationMs ? { lockDuration: options.lockDurationMs } : {}),
    ...(options.stalledIntervalMs ? { stalledInterval: options.stalledIntervalMs } : {}),
    ...(options.maxStalledCount !== undefined ? { maxStalledCount: options.maxStalledCount } : {}),
  };

  // The events being fanned out at once share one statement and one addBulk, the delivery jobs one read of their
  // targets and one write of their attempts: under load a round trip (and a commit) per batch instead of one per job,
  // and when idle nothing waits.
  const fanOuts = createGroupCommit(async (events: readonly WebhookEventToFanOut[]) => {
    const pending = await fanOutWebhookEvents(pool, events);
    // Every pending delivery, not only the new ones: a run that died after its commit left some without a job. A
    // job whose id (the delivery's) already exists is not added again.
    const jobs = events.flatMap((event, i) =>
      pending[i]!.map((id) => ({ name: WEBHOOK_DELIVERY_JOB, data: { DeliveryID: id, AccountID: event.accountId }, opts: webhookDeliveryJobOptions(id) })),
    );
    if (jobs.length > 0) await deliveries.addBulk(jobs);
    return events.map(() => undefined);
  }, GROUP_COMMIT);
  const targets = createGroupCommit((reads: readonly WebhookDeliveryToRead[]) => findWebhookDeliveryTargets(pool, reads), GROUP_COMMIT);
  const attempts = createGroupCommit((made: readonly WebhookAttemptToRecord[]) => recordWebhookAttempts(pool, made, options.disableAfterMs), GROUP_COMMIT);

  const fanOutEvent = async (job: Job): Promise<void> => {
    if (!isWebhookEventType(job.name)) throw new UnrecoverableError(`No webhook event '${job.name}' on ${QUEUES.bookingEvents}.`);
    const errors = validateEvent(job.name, job.data);
    if (errors.length > 0) throw new UnrecoverableError(`Invalid ${job.name} payload: ${errors.map((e) => e.message).join(' ')}`);
    const event = job.data as JobPayloads[WebhookEventType];
    // Bookings of the operator's own channels have no partner, so no endpoint to hear of them.
    if (!event.PartnerID) return;
    const payload = { type: job.name, timestamp: new Date(event.OccurredAt * 1000).toISOString(), data: event };
    await fanOuts.submit({ accountId: event.AccountID, partnerId: event.PartnerID, eventId: event.EventID, type: job.name, payload });
  };

  const slots = createEndpointSlots({ max: options.endpointMaxInFlight, minBackOffMs: BUSY_ENDPOINT_MIN_DELAY_MS, maxBackOffMs: options.attemptTimeoutMs });
  // Jobs sent back for their endpoint's cap, by endpoint in the order they were parked, and the endpoint of each. A
  // slot freed by an attempt brings its endpoint's oldest parked job back at once (promoted out of the delayed set);
  // the delay a job was parked with brings it back only when no slot of its endpoint freed in this process meanwhile.
  // So a dead endpoint's jobs do not come back again and again while its slots hang (each return is Redis work in the
  // same queue as every healthy endpoint's jobs), and a slow endpoint's jobs do not wait longer than its slots. A job
  // coming back while its endpoint is still full goes back again without a database read. Only bookkeeping: a job
  // another process takes leaves its entry here, so it is emptied when it grows large; a promotion that finds its job
  // no longer delayed goes on to the next one.
  const parkedByEndpoint = new Map<string, Set<string>>();
  const parkedAt = new Map<string, string>();
  const unpark = (jobId: string) => {
    const endpointId = parkedAt.get(jobId);
    if (endpointId === undefined) return;
    parkedAt.delete(jobId);
    const parked = parkedByEndpoint.get(endpointId);
    parked?.delete(jobId);
    if (parked?.size === 0) parkedByEndpoint.delete(endpointId);
  };
  const waitForSlot = (job: Job, token: string | undefined, endpointId: string) => {
    if (parkedAt.size >= MAX_WAITING_FOR_SLOT) {
      parkedAt.clear();
      parkedByEndpoint.clear();
    }
    parkedAt.set(job.id!, endpointId);
    parkedByEndpoint.set(endpointId, (parkedByEndpoint.get(endpointId) ?? new Set()).add(job.id!));
    // Spread over the 20% after the moment a slot is sure to be free, never before it: a job back earlier would only find
    // its endpoint full again.
    const backOff = slots.backOff(endpointId);
    return postpone(job, token, Date.now() + backOff + Math.round(Math.random() * backOff * 0.2));
  };
  const wakeParked = async (endpointId: string): Promise<void> => {
    for (const jobId of parkedByEndpoint.get(endpointId) ?? []) {
      unpark(jobId);
      try {
        const parked = await Job.fromId(deliveries, jobId);
        if (parked) {
          await parked.promote();
          return;
        }
      } catch (err) {
        // Taken meanwhile (promote refuses a job that is not delayed), or Redis failed: its own delay brings it back.
        logger.debug({ err, jobId }, 'parked delivery not promoted');
      }
    }
  };
  const postpone = async (job: Job, token: string | undefined, until: number): Promise<never> => {
    await job.moveToDelayed(until, token);
    throw new DelayedError();
  };

  const deliver = async (job: Job<WebhookDeliveryJob>, token?: string): Promise<void> => {
    const { DeliveryID, AccountID } = (job.data ?? {}) as Partial<WebhookDeliveryJob>;
    if (typeof DeliveryID !== 'string' || !UUID.test(DeliveryID) || typeof AccountID !== 'string' || !UUID.test(AccountID)) {
      throw new UnrecoverableError(`Invalid ${WEBHOOK_DELIVERY_JOB} job data: DeliveryID and AccountID must be UUIDs.`);
    }
    const parkedFor = parkedAt.get(job.id!);
    if (parkedFor !== undefined && slots.isFull(parkedFor)) await waitForSlot(job, token, parkedFor);
    unpark(job.id!);
    // The run started when its job was added: the fan-out's job, or a replay's fresh one.
    const target = await targets.submit({ accountId: AccountID, deliveryId: DeliveryID, runStartedAt: new Date(job.timestamp) });
    // Gone with its endpoint, or finished by another run: nothing to do.
    if (!target || target.status !== 'pending') return;
    if (target.endpointDisabled) {
      await failWebhookDelivery(pool, AccountID, DeliveryID, 'endpoint disabled: not attempted');
      return;
    }
    // A job that ran again after a crash keeps to the schedule its attempt had set.
    if (target.nextAttemptAt && target.nextAttemptAt.getTime() > Date.now() + 1000) await postpone(job, token, target.nextAttemptAt.getTime());
    const release = slots.take(target.endpointId);
    if (!release) return waitForSlot(job, token, target.endpointId);
    let result;
    try {
      result = await sender.send({ url: target.url, secret: target.secret, messageId: target.eventId, body: JSON.stringify(target.payload) });
    } finally {
      release();
      if (parkedByEndpoint.has(target.endpointId)) void wakeParked(target.endpointId);
    }
    const delay = result.succeeded ? undefined : options.retryDelaysMs[target.runAttempts];
    const nextAttemptAt = delay === undefined ? null : new Date(Date.now() + withJitter(delay));
    const outcome = await attempts.submit({
      accountId: AccountID,
      deliveryId: DeliveryID,
      endpointId: target.endpointId,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      error: result.error,
      responseExcerpt: result.responseExcerpt,
      succeeded: result.succeeded,
      nextAttemptAt,
      refusal: result.refused ?? null,
      url: target.url,
    });
    // Deleted with its endpoint during the attempt: nothing left to record or retry.
    if (!outcome) return;
    countWebhookDelivery(result.succeeded ? 'delivered' : result.refused ? 'refused' : outcome.status === 'failed' ? 'failed' : 'failed_attempt');
    if (outcome.status === 'failed') {
      logger.info(
        {
          deliveryId: DeliveryID,
          endpointId: target.endpointId,
          attempts: target.runAttempts + 1,
          endpointDisabled: outcome.endpointDisabled,
          error: result.error,
        },
        'webhook delivery failed',
      );
    }
    if (outcome.status === 'pending' && nextAttemptAt) await postpone(job, token, nextAttemptAt.getTime());
  };

  const fanOut = workersFor(QUEUES.bookingEvents, fanOutEvent, options.fanOutConcurrency);
  const delivery = workersFor(WEBHOOK_DELIVERIES_QUEUE, deliver, options.deliveryConcurrency);
  for (const worker of [...fanOut, ...delivery]) {
    worker.on('completed', () => countJobProcessed(worker.name, 'completed'));
    worker.on('failed', (job, err) => {
      // BullMQ stamps finishedOn only on a job that has no attempt left (moved to the failed set).
      countJobProcessed(worker.name, job?.finishedOn ? 'failed' : 'retried');
      logger.warn({ queue: worker.name, jobId: job?.id, job: job?.name, attemptsMade: job?.attemptsMade, err }, 'job failed');
    });
    worker.on('error', (err) => logger.error({ queue: worker.name, err }, 'worker error'));
  }

  return {
    fanOut,
    delivery,
    async close() {
      await Promise.all([...fanOut, ...delivery].map((worker) => worker.close()));
      await deliveries.close();
    },
  };

  /**
   * `concurrency` jobs of `queue` at once, over as many BullMQ workers as it takes to give each at most WORKER_SHARE. A
   * BullMQ worker fetches one job per round trip and starts none of those waiting until it has fetched as many as it
   * has free slots: with all 200 delivery slots in one worker, a backlog waited for up to 200 round trips before its
   * first attempt, and under load the backlog grew faster than it was started. Workers of a share fetch side by side.
   */
  function workersFor<T>(queue: string, processor: (job: Job<T>, token?: string) => Promise<void>, concurrency: number): Array<Worker<T>> {
    const count = Math.ceil(concurrency / WORKER_SHARE);
    return Array.from(
      { length: count },
      (_, i) => new Worker<T>(queue, processor, { ...workerOptions, concurrency: Math.floor(concurrency / count) + (i < concurrency % count ? 1 : 0) }),
    );
  }
}

function isWebhookEventType(name: string): name is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(name);
}
