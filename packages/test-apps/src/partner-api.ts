// The partner app as the tests run it, for its own tests and for other workspaces' tests that need bookings made
// through the real API (the worker's outbox relay).
import { createKeyVerifier, createLogger } from '@backbone/http';
import type { Pool } from '@backbone/db';
import { createPartnerApp } from '@backbone/partner-api';
import { PROBLEM_BASE } from './problem-base.js';

export { PROBLEM_BASE };

/** The real partner app over `pool`, as the tests run it: silent logs and no key cache. */
export function createTestPartnerApp(pool: Pool, options: { bodyLimit?: string } = {}) {
  return createPartnerApp({
    pool,
    logger: createLogger({ level: 'silent', name: 'partner-api-test' }),
    problemBase: PROBLEM_BASE,
    bodyLimit: options.bodyLimit ?? '64kb',
    // No key cache: a revoked key must fail on the very next request.
    keyVerifier: createKeyVerifier(pool, 0),
  });
}
