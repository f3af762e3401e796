// The BullMQ side of the job catalog: one Queue per catalog queue, the Redis connections, and the options every
// job is added with. Producers (the APIs, the outbox relay, Node services) only ever open Queues; Workers live in
// the worker apps alone.
import { Queue, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { JOBS, QUEUES, type JobName, type QueueName } from '@backbone/contracts';

export const DEFAULT_QUEUE_PREFIX = 'bull';
export const QUEUE_NAMES: readonly QueueName[] = Object.values(QUEUES);

/**
 * Completed jobs are kept for a day, at most 10,000 per queue: while a job is kept, publishing its EventID again is
 * a no-op in Redis. After that a republished event runs again and the unique key in PostgreSQL drops it.
 */
export const KEEP_COMPLETED = { age: 24 * 3600, count: 10_000 } as const;

/** Overrides of the catalog's retry policy (tests use a short backoff). */
export interface RetryOverride {
  attempts?: number;
  backoffDelayMs?: number;
}

/**
 * The job id of an event. An event's identity is (account, EventID): two accounts may well use the same EventID, and
 * one job id for both would make BullMQ drop the second account's event as a duplicate of the first. Both parts in
 * lower case, so the same UUIDs in another case are the same job; '.' because BullMQ refuses ':' in custom ids.
 */
export function eventJobId(event: { AccountID: string; EventID: string }): string {
  return `${event.AccountID.toLowerCase()}.${event.EventID.toLowerCase()}`;
}

export function jobOptionsFor(name: JobName, event: { AccountID: string; EventID: string }, retry: RetryOverride = {}): JobsOptions {
  const job = JOBS[name];
  return {
    jobId: eventJobId(event),
    attempts: retry.attempts ?? job.attempts,
    backoff: { type: job.backoff.type, delay: retry.backoffDelayMs ?? job.backoff.delay },
    removeOnComplete: KEEP_COMPLETED,
    // Failed jobs stay until an operator replays or removes them.
    removeOnFail: false,
  };
}

/**
 * A Redis connection for BullMQ. A producer fails a command after a few reconnection attempts, so a caller (an HTTP
 * request) hears about an unreachable Redis within a second instead of hanging; a consumer waits for Redis forever,
 * as BullMQ's blocking commands require.
 */
export function createRedisConnection(url: string, role: 'producer' | 'consumer'): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: role === 'producer' ? 3 : null,
    // Keep reconnecting with a short, capped delay: a restarted Redis is picked up within half a second.
    retryStrategy: (times) => Math.min(times * 50, 500),
  });
  // Connection errors surface through the commands that fail; an unhandled 'error' event would crash the process.
  redis.on('error', () => undefined);
  return redis;
}

export type EventQueues = Readonly<Record<QueueName, Queue>>;

/** Opens one Queue per catalog queue on `connection` (which stays owned by the caller). */
export function openQueues(connection: Redis, prefix: string = DEFAULT_QUEUE_PREFIX, onError: (error: Error) => void = () => undefined): EventQueues {
  const entries = QUEUE_NAMES.map((name) => {
    const queue = new Queue(name, { connection, prefix });
    queue.on('error', onError);
    return [name, queue] as const;
  });
  return Object.fromEntries(entries) as Record<QueueName, Queue>;
}

/**
 * `work`, or an error once `ms` passed. BullMQ waits for a Redis that is down for as long as it takes; callers that
 * must answer (a request, a relay holding row locks) give up instead. A job added after the deadline is harmless:
 * the retry adds the same job id.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from Redis within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export async function closeQueues(queues: EventQueues): Promise<void> {
  await Promise.all(Object.values(queues).map((queue) => queue.close()));
}
