// The typed way Node services put events on the queues named in the job catalog: the payload is checked against the
// catalog schema before anything is enqueued, and the job id is the event's (account, EventID), so publishing an
// event twice while its job is kept enqueues it once.
import type { Redis } from 'ioredis';
import { JOBS, type JobName, type JobPayloads, type QueueName } from '@backbone/contracts';
import { ValidationError, type FieldError } from '@backbone/domain';
import { assertValidEvent, validateEvent } from './event-validation.js';
import {
  closeQueues,
  createRedisConnection,
  DEFAULT_QUEUE_PREFIX,
  jobOptionsFor,
  openQueues,
  withDeadline,
  type EventQueues,
  type RetryOverride,
} from './queues.js';

/** One event for `publishBulk`: the job name with its payload. */
export type PublishableEvent = { [N in JobName]: { name: N; payload: JobPayloads[N] } }[JobName];

export interface EventPublisher {
  /** Validates the payload against the catalog (throws a ValidationError on a malformed event, enqueuing nothing), then enqueues it. */
  publish<N extends JobName>(name: N, payload: JobPayloads[N]): Promise<void>;
  /** Validates every event first (nothing is enqueued when one is malformed), then enqueues them in bulk. */
  publishBulk(events: readonly PublishableEvent[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Redis did not confirm the event in time. It was most likely not queued; if it was, publishing it again (same
 * account and EventID, so the same job) changes nothing, so the caller retries.
 */
export class EventQueueUnavailableError extends Error {
  override name = 'EventQueueUnavailableError';
}

export interface EventPublisherOptions {
  /** Redis to connect to; the publisher owns and closes this connection. */
  redisUrl?: string;
  /** Or a connection owned by the caller (left open by close()). */
  connection?: Redis;
  /** BullMQ key prefix; default 'bull'. */
  prefix?: string;
  retry?: RetryOverride;
  /** Errors of the queues' background connections (logged by the caller). */
  onError?: (error: Error) => void;
  /** How long a publish waits for a connection to Redis (and a single event for Redis to take it) before it fails with EventQueueUnavailableError; default 5000 ms. */
  timeoutMs?: number;
}

export function createEventPublisher(options: EventPublisherOptions): EventPublisher {
  const owned = options.connection ? null : createRedisConnection(requireUrl(options.redisUrl), 'producer');
  const connection = options.connection ?? owned!;
  const queues: EventQueues = openQueues(connection, options.prefix ?? DEFAULT_QUEUE_PREFIX, options.onError);
  const retry = options.retry ?? {};
  const timeoutMs = options.timeoutMs ?? 5000;

  // A request must get an answer: the publisher waits at most `timeoutMs` for a connection to Redis, and a single
  // event at most as long for Redis to take it. Once connected, a bulk add fails when the connection drops.
  const enqueue = async <T>(work: () => Promise<T>, deadline: boolean): Promise<T> => {
    try {
      await untilConnected(connection, timeoutMs);
      return deadline ? await withDeadline(work(), timeoutMs) : await work();
    } catch (error) {
      throw new EventQueueUnavailableError(`The event queue did not accept the event: ${(error as Error).message}`, { cause: error });
    }
  };

  return {
    async publish(name, payload) {
      assertValidEvent(name, payload);
      const queue = queues[JOBS[name].queue];
      await enqueue(() => queue.add(name, payload, jobOptionsFor(name, payload, retry)), true);
    },
    async publishBulk(events) {
      const errors: FieldError[] = events.flatMap((event, index) =>
        validateEvent(event.name, event.payload).map((e) => ({ field: `[${index}].${e.field}`, message: `[${index}] ${event.name}: ${e.message}` })),
      );
      if (errors.length > 0) throw new ValidationError(errors);
      const byQueue = new Map<QueueName, Array<{ name: string; data: unknown; opts: ReturnType<typeof jobOptionsFor> }>>();
      for (const { name, payload } of events) {
        const queueName = JOBS[name].queue;
        const jobs = byQueue.get(queueName) ?? [];
        jobs.push({ name, data: payload, opts: jobOptionsFor(name, payload, retry) });
        byQueue.set(queueName, jobs);
      }
      await enqueue(() => Promise.all([...byQueue].map(([queueName, jobs]) => queues[queueName].addBulk(jobs))), false);
    },
    async close() {
      await closeQueues(queues);
      if (owned) await owned.quit().catch(() => owned.disconnect());
    },
  };
}

async function untilConnected(connection: Redis, ms: number): Promise<void> {
  if (connection.status === 'ready') return;
  let onReady: (() => void) | undefined;
  try {
    await withDeadline(new Promise<void>((resolve) => connection.once('ready', (onReady = resolve))), ms);
  } finally {
    if (onReady) connection.off('ready', onReady);
  }
}

function requireUrl(url: string | undefined): string {
  if (!url) throw new Error('createEventPublisher needs a redisUrl or a connection');
  return url;
}
