// The usage app as the tests run it, for its own tests and for the worker's end-to-end test (summaries over HTTP).
import { createUsageWriter, type Pool, type UsageWriter } from '@backbone/db';
import { createKeyVerifier, createLogger } from '@backbone/http';
import type { EventPublisher } from '@backbone/publisher';
import { createUsageApp } from '@backbone/usage-api';
import { PROBLEM_BASE } from './problem-base.js';

export { PROBLEM_BASE };

/**
 * The usage app as the tests run it: silent logs, the tests' problem base and body limits, no key cache unless asked (a
 * revoked key must fail on the very next request), a real group-commit writer, and the given publisher and Redis
 * readiness.
 */
export function createTestUsageApp(deps: {
  pool: Pool;
  publisher: EventPublisher;
  redisReady: () => Promise<boolean>;
  usageWriter?: UsageWriter;
  authCacheTtlMs?: number;
}) {
  return createUsageApp({
    pool: deps.pool,
    logger: createLogger({ level: 'silent', name: 'usage-api-test' }),
    problemBase: PROBLEM_BASE,
    bodyLimit: '1mb',
    batchBodyLimit: '5mb',
    keyVerifier: createKeyVerifier(deps.pool, deps.authCacheTtlMs ?? 0),
    usageWriter: deps.usageWriter ?? createUsageWriter(deps.pool),
    publisher: deps.publisher,
    redisReady: deps.redisReady,
  });
}
