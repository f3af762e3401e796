// The producer side of the webhook delivery queue: the partner API and the admin CLI add a job when a delivery is
// replayed; the webhook worker alone consumes them. A job names its delivery; the delivery's state is in PostgreSQL.
import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { WEBHOOK_DELIVERIES_QUEUE, WEBHOOK_DELIVERY_JOB, type WebhookDeliveryJob } from '@backbone/contracts';
import { EventQueueUnavailableError } from './publisher.js';
import { DEFAULT_QUEUE_PREFIX, KEEP_COMPLETED, withDeadline } from './queues.js';

export interface WebhookDeliveryQueue {
  /**
   * Adds one job per delivery, each with its own job id (a replay's is fresh, so BullMQ does not take it for a job it
   * already kept). Fails with EventQueueUnavailableError when Redis does not take them within the deadline.
   */
  enqueue(jobs: ReadonlyArray<{ data: WebhookDeliveryJob; jobId: string }>): Promise<void>;
  close(): Promise<void>;
}

/**
 * Options of a delivery job, fan-out's or replay's alike. The attempts and backoff cover failures that are not the
 * endpoint's (PostgreSQL or Redis unreachable); the worker retries the endpoint's own failures by rescheduling the job,
 * which BullMQ does not count as an attempt.
 */
export function webhookDeliveryJobOptions(jobId: string): JobsOptions {
  return { jobId, attempts: 10, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: KEEP_COMPLETED, removeOnFail: false };
}

export interface WebhookDeliveryQueueOptions {
  /** BullMQ key prefix; default 'bull'. */
  prefix?: string;
  /** How long an enqueue waits for Redis; default 5000 ms. */
  timeoutMs?: number;
  onError?: (error: Error) => void;
}

/** Opens the delivery queue on `connection`, which stays owned by the caller. */
export function openWebhookDeliveryQueue(connection: Redis, options: WebhookDeliveryQueueOptions = {}): WebhookDeliveryQueue {
  const queue = new Queue<WebhookDeliveryJob>(WEBHOOK_DELIVERIES_QUEUE, { connection, prefix: options.prefix ?? DEFAULT_QUEUE_PREFIX });
  queue.on('error', options.onError ?? (() => undefined));
  const timeoutMs = options.timeoutMs ?? 5000;
  return {
    async enqueue(jobs) {
      if (jobs.length === 0) return;
      const bulk = jobs.map(({ data, jobId }) => ({ name: WEBHOOK_DELIVERY_JOB, data, opts: webhookDeliveryJobOptions(jobId) }));
      try {
        await withDeadline(queue.addBulk(bulk), timeoutMs);
      } catch (error) {
        throw new EventQueueUnavailableError(`The webhook delivery queue did not accept the job: ${(error as Error).message}`, { cause: error });
      }
    },
    async close() {
      await queue.close();
    },
  };
}
