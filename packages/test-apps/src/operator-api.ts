// The operator app as the tests run it: silent logs, no key cache, sessions and throttle limits the test may shorten,
// the throttle and the failed set on the test file's Redis prefix.
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUES } from '@backbone/contracts';
import type { Pool } from '@backbone/db';
import type { FileStore } from '@backbone/file-store';
import { createKeyVerifier, createLogger, createSessionVerifier, type KeyRateLimiter, type SessionLifetimes } from '@backbone/http';
import { createOperatorApp, createPasswordResetThrottle, createSignInThrottle } from '@backbone/operator-api';
import { createEventPublisher, eventJobId, keyRevocationsOver, type EventQueues } from '@backbone/publisher';
import { orderCompleted } from './metering-worker.js';
import { createTemporaryFileStore } from './partner-api.js';
import { PROBLEM_BASE } from './problem-base.js';

export { PROBLEM_BASE };

export interface TestOperatorAppOptions {
  pool: Pool;
  redis: Redis;
  redisUrl: string;
  prefix: string;
  queues: EventQueues;
  sessions?: Partial<SessionLifetimes>;
  signIn?: { maxFailures?: number; maxFailuresPerAddress?: number; windowSeconds?: number; hashConcurrency?: number; maxConcurrentPerAddress?: number };
  passwordReset?: { maxPerEmail?: number; maxPerAddress?: number; windowSeconds?: number };
  consoleDir?: string | null;
  /** Per-key limits; none by default, as the load of the other tests comes from one key. */
  rateLimiter?: KeyRateLimiter;
  /** How long a verified key is trusted without a look-up (AUTH_CACHE_TTL_MS); 0 (no cache) by default. */
  authCacheTtlMs?: number;
  /** Where uploads are kept: a fresh temporary directory unless given. */
  fileStore?: FileStore;
  /** FILE_QUOTA_BYTES: 5 GB unless given. */
  fileQuotaBytes?: number;
}

export function createTestOperatorApp(options: TestOperatorAppOptions) {
  const sessions = { idleTimeoutMs: 1_800_000, absoluteLifetimeMs: 43_200_000, ...options.sessions };
  return createOperatorApp({
    pool: options.pool,
    logger: createLogger({ level: 'silent', name: 'operator-api-test' }),
    problemBase: PROBLEM_BASE,
    bodyLimit: '64kb',
    keyVerifier: createKeyVerifier(options.pool, options.authCacheTtlMs ?? 0),
    rateLimiter: options.rateLimiter,
    sessionVerifier: createSessionVerifier(options.pool, sessions),
    keyRevocations: keyRevocationsOver(options.redisUrl),
    sessions,
    throttle: createSignInThrottle(options.redis, {
      keyPrefix: `${options.prefix}:sign-in`,
      maxFailures: options.signIn?.maxFailures ?? 5,
      maxFailuresPerAddress: options.signIn?.maxFailuresPerAddress ?? 100,
      windowSeconds: options.signIn?.windowSeconds ?? 900,
      hashConcurrency: options.signIn?.hashConcurrency ?? 0,
      maxConcurrentPerAddress: options.signIn?.maxConcurrentPerAddress ?? 2,
    }),
    resetThrottle: createPasswordResetThrottle(options.redis, {
      keyPrefix: `${options.prefix}:password-reset`,
      maxPerEmail: options.passwordReset?.maxPerEmail ?? 3,
      maxPerAddress: options.passwordReset?.maxPerAddress ?? 20,
      windowSeconds: options.passwordReset?.windowSeconds ?? 3600,
    }),
    queues: options.queues,
    consoleDir: options.consoleDir ?? null,
    fileStore: options.fileStore ?? createTemporaryFileStore(),
    fileQuotaBytes: options.fileQuotaBytes ?? 5_000_000_000,
    redisReady: async () => (await options.redis.ping()) === 'PONG',
  });
}

/**
 * Puts a platform event of `accountId` into the failed set: published with one attempt, taken by a worker that
 * refuses it, then left there (the worker is closed). Answers the job id.
 */
export async function failPlatformEvent(redis: Redis, prefix: string, accountId: string, basketId: string): Promise<string> {
  const event = orderCompleted(accountId, basketId);
  const publisher = createEventPublisher({ connection: redis, prefix, retry: { attempts: 1, backoffDelayMs: 1 } });
  const jobId = eventJobId(event.payload);
  const worker = new Worker(QUEUES.platformEvents, async () => Promise.reject(new Error('refused by the test')), { connection: redis.duplicate(), prefix });
  try {
    await publisher.publishBulk([event]);
    const queue = new Queue(QUEUES.platformEvents, { connection: redis, prefix });
    for (let i = 0; i < 200 && (await (await queue.getJob(jobId))?.getState()) !== 'failed'; i++) await new Promise((r) => setTimeout(r, 25));
    await queue.close();
  } finally {
    await worker.close();
    await publisher.close();
  }
  return jobId;
}
