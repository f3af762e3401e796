// The operator app as the tests run it: silent logs, no key cache, sessions and throttle limits the test may shorten,
// the throttle and the failed set on the test file's Redis prefix.
import type { Redis } from 'ioredis';
import type { Pool } from '@backbone/db';
import { createKeyVerifier, createLogger, createSessionVerifier, type SessionLifetimes } from '@backbone/http';
import { createOperatorApp, createSignInThrottle } from '@backbone/operator-api';
import type { EventQueues } from '@backbone/publisher';
import { PROBLEM_BASE } from './problem-base.js';

export { PROBLEM_BASE };

export interface TestOperatorAppOptions {
  pool: Pool;
  redis: Redis;
  prefix: string;
  queues: EventQueues;
  sessions?: Partial<SessionLifetimes>;
  signIn?: { maxFailures?: number; windowSeconds?: number };
  consoleDir?: string | null;
}

export function createTestOperatorApp(options: TestOperatorAppOptions) {
  const sessions = { idleTimeoutMs: 1_800_000, absoluteLifetimeMs: 43_200_000, ...options.sessions };
  return createOperatorApp({
    pool: options.pool,
    logger: createLogger({ level: 'silent', name: 'operator-api-test' }),
    problemBase: PROBLEM_BASE,
    bodyLimit: '64kb',
    keyVerifier: createKeyVerifier(options.pool, 0),
    sessionVerifier: createSessionVerifier(options.pool, sessions),
    sessions,
    throttle: createSignInThrottle(options.redis, {
      keyPrefix: `${options.prefix}:sign-in`,
      maxFailures: options.signIn?.maxFailures ?? 5,
      windowSeconds: options.signIn?.windowSeconds ?? 900,
    }),
    queues: options.queues,
    consoleDir: options.consoleDir ?? null,
    redisReady: async () => (await options.redis.ping()) === 'PONG',
  });
}
