// The two BullMQ workers of webhook delivery, composed from their parts: the fan-out (fan-out.ts) consumes booking
// events and turns each into one delivery row per matching endpoint, then one `deliver` job per pending delivery; the
// delivery (delivery.ts) makes one attempt per run of a job and reschedules the same job for the next one; a job over
// its endpoint's in-flight cap (endpoint-slots.ts) is parked until a slot frees (parked-deliveries.ts).
import { Queue, type Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { QUEUES, WEBHOOK_DELIVERIES_QUEUE, type WebhookDeliveryJob } from '@backbone/contracts';
import type { Pool } from '@backbone/db';
import { createDelivery } from './delivery.js';
import { createEndpointSlots } from './endpoint-slots.js';
import { createFanOut } from './fan-out.js';
import { createParkedDeliveries } from './parked-deliveries.js';
import { reportJobOutcomes, startQueueWorkers } from './queue-workers.js';
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
// The fan-out's events, the deliveries' reads of their targets and writes of their attempts are each committed in
// groups. A statement that fails for one of its items is made again item by item, so the others do not fail with it.
const GROUP_COMMIT = { maxBatchSize: 200, maxConcurrentBatches: 4, retryFailedBatchItemByItem: true } as const;

export function startWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { pool, logger } = options;
  const deliveries = new Queue<WebhookDeliveryJob>(WEBHOOK_DELIVERIES_QUEUE, { connection: options.producer, prefix: options.prefix });
  deliveries.on('error', (err) => logger.warn({ err }, 'delivery queue connection error'));
  const workerOptions = {
    connection: options.connection,
    prefix: options.prefix,
    ...(options.lockDurationMs ? { lockDuration: options.lockDurationMs } : {}),
    ...(options.stalledIntervalMs ? { stalledInterval: options.stalledIntervalMs } : {}),
    ...(options.maxStalledCount !== undefined ? { maxStalledCount: options.maxStalledCount } : {}),
  };

  const fanOutEvent = createFanOut({ pool, deliveries, groupCommit: GROUP_COMMIT });
  const slots = createEndpointSlots({ max: options.endpointMaxInFlight, minBackOffMs: BUSY_ENDPOINT_MIN_DELAY_MS, maxBackOffMs: options.attemptTimeoutMs });
  const deliver = createDelivery({
    pool,
    sender: options.sender,
    logger,
    slots,
    parked: createParkedDeliveries({ deliveries, slots, logger }),
    retryDelaysMs: options.retryDelaysMs,
    disableAfterMs: options.disableAfterMs,
    groupCommit: GROUP_COMMIT,
  });

  const fanOut = startQueueWorkers(QUEUES.bookingEvents, fanOutEvent, options.fanOutConcurrency, workerOptions);
  const delivery = startQueueWorkers(WEBHOOK_DELIVERIES_QUEUE, deliver, options.deliveryConcurrency, workerOptions);
  for (const worker of [...fanOut, ...delivery]) reportJobOutcomes(worker, logger);

  return {
    fanOut,
    delivery,
    async close() {
      await Promise.all([...fanOut, ...delivery].map((worker) => worker.close()));
      await deliveries.close();
    },
  };
}
