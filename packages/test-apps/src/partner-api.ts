// The partner app as the tests run it, for its own tests and for other workspaces' tests that need bookings made
// through the real API (the worker's outbox relay).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDirectoryFileStore, type FileStore } from '@backbone/file-store';
import { createKeyVerifier, createLogger, type AddressRateLimiter, type Logger } from '@backbone/http';
import type { Pool } from '@backbone/db';
import { createPartnerApp, createShopPages, type PartnerAppDeps } from '@backbone/partner-api';
import { EventQueueUnavailableError } from '@backbone/publisher';
import { PROBLEM_BASE } from './problem-base.js';

export { PROBLEM_BASE };

/**
 * The webhook members of the app's deps for tests that do not exercise webhooks: no host allowed, and a delivery
 * queue that takes nothing (a replay answers 503). Webhook tests pass a real queue on their Redis prefix.
 */
export const WITHOUT_WEBHOOKS: Pick<PartnerAppDeps, 'destinationPolicy' | 'webhookDeliveries'> = {
  destinationPolicy: { allowedHosts: [] },
  webhookDeliveries: {
    enqueue: () => Promise.reject(new EventQueueUnavailableError('this test app has no webhook delivery queue')),
    close: () => Promise.resolve(),
  },
};

export interface TestPartnerAppOptions {
  bodyLimit?: string;
  /** How long a verified key is trusted without a look-up (AUTH_CACHE_TTL_MS); 0 (no cache) by default. */
  authCacheTtlMs?: number;
  webhooks?: Partial<Pick<PartnerAppDeps, 'destinationPolicy' | 'webhookDeliveries'>>;
  /** Where uploads go: a fresh temporary directory unless given. */
  fileStore?: FileStore;
  /** FILE_QUOTA_BYTES: 5 GB unless given. */
  fileQuotaBytes?: number;
  /** The built booking page's folder, served under /book; none unless given. */
  bookingPageDir?: string;
  /** The shop API's per-address limits; none unless given (tests of the limits pass one on their Redis prefix). */
  shopRateLimiter?: AddressRateLimiter;
  /** Where the app logs; silent unless given (tests of the log lines pass one writing to a capture). */
  logger?: Logger;
}

/** A file store in a new temporary directory of its own. */
export function createTemporaryFileStore(): FileStore {
  return createDirectoryFileStore(mkdtempSync(path.join(os.tmpdir(), 'backbone-files-')));
}

/** The file members of the app's deps for tests that do not look at files: a temporary store, the default quota. */
export function testFileDeps(): Pick<PartnerAppDeps, 'fileStore' | 'fileQuotaBytes'> {
  return { fileStore: createTemporaryFileStore(), fileQuotaBytes: 5_000_000_000 };
}

/** The real partner app over `pool`, as the tests run it: unless asked, silent logs and no key cache. */
export function createTestPartnerApp(pool: Pool, options: TestPartnerAppOptions = {}) {
  return createPartnerApp({
    pool,
    logger: options.logger ?? createLogger({ level: 'silent', name: 'partner-api-test' }),
    problemBase: PROBLEM_BASE,
    bodyLimit: options.bodyLimit ?? '64kb',
    // No key cache unless asked: a revoked key must fail on the very next request.
    keyVerifier: createKeyVerifier(pool, options.authCacheTtlMs ?? 0),
    ...WITHOUT_WEBHOOKS,
    ...options.webhooks,
    fileStore: options.fileStore ?? createTemporaryFileStore(),
    fileQuotaBytes: options.fileQuotaBytes ?? 5_000_000_000,
    bookingPageDir: options.bookingPageDir ?? null,
    // Pages are read on every request: a test that turns one off sees it at once.
    shopPages: createShopPages(pool, 0),
    shopRateLimiter: options.shopRateLimiter,
  });
}
