// Revoking a key reaches every running API at once: the partner and the usage API run here as two servers, each with
// its own key cache (a TTL long enough that only the announcement can explain a 401) and its own Redis subscriber,
// as two processes would. The key is revoked by the admin CLI's revoke-key.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Redis } from 'ioredis';
import { createApiKey, createUsageWriter, revokeApiKey, type Pool } from '@backbone/db';
import { createKeyVerifier, createLogger, listenForKeyRevocations, type KeyRevocationListener, type Logger } from '@backbone/http';
import { createPartnerApp } from '@backbone/partner-api';
import { testFileDeps, WITHOUT_WEBHOOKS } from '@backbone/test-apps/partner-api';
import { createEventPublisher } from '@backbone/publisher';
import { createTestAccount, request, useTestDatabase, useTestRedis, useTestServer, type TestAccount } from '@backbone/testkit';
import { createUsageApp } from '@backbone/usage-api';
import { partnerCommands } from '../admin/partner.commands.js';

const CACHE_TTL_MS = 60_000;
// A 401 sooner than this after the revocation is the announcement's doing, not the cache's TTL: milliseconds on a quiet
// machine, with room for a loaded one.
const WELL_WITHIN_TTL_MS = CACHE_TTL_MS / 6;
const PROBLEM_BASE = 'https://problems.example.test';
const PRODUCTS = '/api/v2/ota/partner/products';
const SUMMARY = '/api/v2/usage/meters?from=2026-01-01&to=2026-01-31';
// Names of this file's subscriber connections in CLIENT LIST, so a test can cut exactly one of them.
const run = randomBytes(4).toString('hex');

const db = useTestDatabase();
const redis = useTestRedis();
const silent = createLogger({ level: 'silent', name: 'key-revocation-test' });
const listeners: KeyRevocationListener[] = [];

/** A verifier with a long-lived cache that listens for revocations, as server.ts builds it. */
function listeningVerifier(pool: Pool, clientName: string, options: { redisUrl?: string; logger?: Logger } = {}) {
  const verifier = createKeyVerifier(pool, CACHE_TTL_MS);
  listeners.push(listenForKeyRevocations({ redisUrl: options.redisUrl ?? redis.redisUrl, verifier, logger: options.logger ?? silent, clientName }));
  return verifier;
}

const partner = useTestServer(() =>
  createPartnerApp({
    pool: db.pool,
    logger: silent,
    problemBase: PROBLEM_BASE,
    bodyLimit: '64kb',
    keyVerifier: listeningVerifier(db.pool, `test-${run}-partner`),
    ...WITHOUT_WEBHOOKS,
    ...testFileDeps(),
  }),
);
const usage = useTestServer(() =>
  createUsageApp({
    pool: db.pool,
    logger: silent,
    problemBase: PROBLEM_BASE,
    bodyLimit: '1mb',
    batchBodyLimit: '5mb',
    keyVerifier: listeningVerifier(db.pool, `test-${run}-usage`),
    usageWriter: createUsageWriter(db.pool),
    publisher: createEventPublisher({ connection: redis.connection(), prefix: redis.prefix }),
    redisReady: async () => true,
  }),
);

// A partner API whose Redis is not there, logging to `logged`.
const logged: Array<Record<string, unknown>> = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line) logged.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
const withoutRedis = useTestServer(() => {
  const logger = pino({ level: 'info' }, capture);
  const keyVerifier = listeningVerifier(db.pool, `test-${run}-no-redis`, { redisUrl: 'redis://127.0.0.1:1', logger });
  return createPartnerApp({ pool: db.pool, logger, problemBase: PROBLEM_BASE, bodyLimit: '64kb', keyVerifier, ...WITHOUT_WEBHOOKS, ...testFileDeps() });
});

let operator: TestAccount;
beforeAll(async () => {
  operator = await createTestAccount(db.pool);
  // The partner and usage servers' subscribers are in place (the one without Redis never will be).
  await Promise.all([listeners[0]!.subscribed, listeners[1]!.subscribed]);
});
afterAll(() => {
  for (const listener of listeners) listener.close();
});

const statusOf = async (url: string, path: string, key: string) => (await request(url, 'GET', path, { key })).status;

async function newKey() {
  return createApiKey(db.pool, operator.account.id, { name: 'soon revoked', scopes: ['ota', 'usage:read'] });
}

/**
 * Polls both APIs until each answers 401 for `key`; fails when requests sent over `limitMs` after `since` (the time an
 * answer takes on a busy machine is not the revocation's) still get another answer.
 */
async function untilBothRefuse(key: string, since: number, limitMs: number): Promise<void> {
  for (;;) {
    const sentAfter = Date.now() - since;
    const [p, u] = await Promise.all([statusOf(partner.url, PRODUCTS, key), statusOf(usage.url, SUMMARY, key)]);
    if (p === 401 && u === 401) return;
    if (sentAfter > limitMs) throw new Error(`${sentAfter} ms after the revocation the partner API answers ${p} and the usage API ${u}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('key revocation', () => {
  it('keeps accepting a key revoked behind its back (no announcement) from the warm cache: the cache is real', async () => {
    const key = await newKey();
    expect(await statusOf(partner.url, PRODUCTS, key.secret)).toBe(200);
    expect(await statusOf(usage.url, SUMMARY, key.secret)).toBe(200);
    await revokeApiKey(db.pool, operator.account.id, key.id);
    expect(await statusOf(partner.url, PRODUCTS, key.secret)).toBe(200);
    expect(await statusOf(usage.url, SUMMARY, key.secret)).toBe(200);
  });

  it('revoke-key makes both running APIs refuse the key at once, well within the cache TTL, and says how many processes heard it', async () => {
    const key = await newKey();
    expect(await statusOf(partner.url, PRODUCTS, key.secret)).toBe(200);
    expect(await statusOf(usage.url, SUMMARY, key.secret)).toBe(200);

    const result = (await partnerCommands['revoke-key']!.run(
      { account: operator.account.id, key: key.id },
      { pool: db.pool, redisUrl: redis.redisUrl, queuePrefix: redis.prefix },
    )) as {
      RunningProcessesNotified: number;
    };
    // From the moment revoke-key has returned (the revocation committed and announced).
    await untilBothRefuse(key.secret, Date.now(), WELL_WITHIN_TTL_MS);
    // This file's two listeners at least (other test files may listen on the same Redis).
    expect(result.RunningProcessesNotified).toBeGreaterThanOrEqual(2);
    // Another key of the same account is untouched.
    expect(await statusOf(partner.url, PRODUCTS, operator.key)).toBe(200);
  });

  it('drops every cached key when its subscription was cut and is back, since announcements may have been missed', async () => {
    const key = await newKey();
    expect(await statusOf(partner.url, PRODUCTS, key.secret)).toBe(200);
    expect(await statusOf(usage.url, SUMMARY, key.secret)).toBe(200);
    // Revoked while the announcement cannot be heard: only the database knows.
    await revokeApiKey(db.pool, operator.account.id, key.id);
    expect(await statusOf(partner.url, PRODUCTS, key.secret)).toBe(200);

    const admin = new Redis(redis.redisUrl);
    try {
      const clients = (await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string;
      const ids = clients
        .split('\n')
        .filter((line) => line.includes(` name=test-${run}-partner `) || line.includes(` name=test-${run}-usage `))
        .map((line) => /\bid=(\d+)/.exec(line)?.[1]);
      expect(ids).toHaveLength(2);
      const cutAt = Date.now();
      for (const id of ids) await admin.call('CLIENT', 'KILL', 'ID', id!);
      // Well within the cache's 60 s: only the reconnect can explain the 401s.
      await untilBothRefuse(key.secret, cutAt, WELL_WITHIN_TTL_MS);
    } finally {
      admin.disconnect();
    }
  });

  it('an API whose Redis is down still serves, and logs that revocations may take up to the TTL', async () => {
    expect(await statusOf(withoutRedis.url, PRODUCTS, operator.key)).toBe(200);
    await expect.poll(() => logged).toContainEqual(expect.objectContaining({ level: 40, msg: expect.stringMatching(/^key revocations: Redis unreachable/) }));
  });
});
