// Per-key rate limits through real HTTP, on the real Redis: the partner and usage APIs run as in production (a key
// cache long enough that only the announcement explains a change, and its revocation listener), with small budgets;
// the override is set by the admin CLI's set-key-limit. Then two APIs whose Redis is absent or never answers.
import net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Redis } from 'ioredis';
import { createApiKey, createUsageWriter, type Pool } from '@backbone/db';
import {
  createKeyRateLimiter,
  createKeyVerifier,
  createLogger,
  createRateLimitRedis,
  listenForKeyRevocations,
  type KeyRateLimiter,
  type KeyRevocationListener,
  type RateLimitDefaults,
} from '@backbone/http';
import { createPartnerApp } from '@backbone/partner-api';
import { closeQueues, createEventPublisher, openQueues, type EventQueues } from '@backbone/publisher';
import { createTestOperatorApp } from '@backbone/test-apps/operator-api';
import { createOperatorUser } from '@backbone/use-cases';
import { createTestAccount, request, useTestDatabase, useTestRedis, useTestServer, type TestAccount } from '@backbone/testkit';
import { createUsageApp } from '@backbone/usage-api';
import { partnerCommands } from '../admin/partner.commands.js';
import { testFileDeps, WITHOUT_WEBHOOKS } from '@backbone/test-apps/partner-api';
import { rateLimitedRequestsTotal, rateLimiterFailedOpenTotal } from '@backbone/metrics';

/** A counter's value summed over its labels, as a scrape would read it. */
const total = async (counter: { get(): Promise<{ values: Array<{ value: number }> }> }) => (await counter.get()).values.reduce((sum, v) => sum + v.value, 0);

const PROBLEM_BASE = 'https://problems.example.test';
const PRODUCTS = '/api/v2/ota/partner/products';
const SUMMARY = '/api/v2/usage/meters?from=2026-01-01&to=2026-01-31';
// Windows of several seconds, so that a burst sent at once always falls into one window on a busy machine:
// ota 5 per 5 s, usage 10 per 5 s, admin 3 per 3 s.
const DEFAULTS: RateLimitDefaults = { ota: { perSecond: 1, burst: 5 }, usage: { perSecond: 2, burst: 10 }, admin: { perSecond: 1, burst: 3 } };

const db = useTestDatabase();
const redis = useTestRedis();
const silent = createLogger({ level: 'silent', name: 'rate-limits-test' });
const listeners: KeyRevocationListener[] = [];
const closers: Array<() => void> = [];

/** A verifier with a long-lived cache that listens for announcements, as server.ts builds it. */
function listeningVerifier(pool: Pool) {
  const verifier = createKeyVerifier(pool, 60_000);
  listeners.push(listenForKeyRevocations({ redisUrl: redis.redisUrl, verifier, logger: silent, clientName: 'rate-limits-test' }));
  return verifier;
}

// The limiters on the test's Redis wait for it far longer than a loaded machine's stalls: a check that timed out there
// would be served without a limit (failing open, as it must when Redis is gone) while Redis counted its chunk, and
// the exact counts below would be off. The limiters without a Redis keep short timeouts.
const HEALTHY_REDIS_TIMEOUT_MS = 30_000;

function limiterOn(redisClient: Redis, logger = silent): KeyRateLimiter {
  closers.push(() => redisClient.disconnect());
  return createKeyRateLimiter({ redis: redisClient, defaults: DEFAULTS, logger, keyPrefix: `${redis.prefix}:rate-limit` });
}

function partnerApp(rateLimiter: KeyRateLimiter, logger = silent) {
  return createPartnerApp({
    pool: db.pool,
    logger,
    problemBase: PROBLEM_BASE,
    bodyLimit: '64kb',
    keyVerifier: listeningVerifier(db.pool),
    rateLimiter,
    ...WITHOUT_WEBHOOKS,
    ...testFileDeps(),
  });
}

const partner = useTestServer(() =>
  partnerApp(limiterOn(createRateLimitRedis(redis.redisUrl, { clientName: 'rate-limits-test', timeoutMs: HEALTHY_REDIS_TIMEOUT_MS }))),
);
const usage = useTestServer(() =>
  createUsageApp({
    pool: db.pool,
    logger: silent,
    problemBase: PROBLEM_BASE,
    bodyLimit: '1mb',
    batchBodyLimit: '5mb',
    keyVerifier: listeningVerifier(db.pool),
    rateLimiter: limiterOn(createRateLimitRedis(redis.redisUrl, { clientName: 'rate-limits-test', timeoutMs: HEALTHY_REDIS_TIMEOUT_MS })),
    usageWriter: createUsageWriter(db.pool),
    publisher: createEventPublisher({ connection: redis.connection(), prefix: redis.prefix }),
    redisReady: async () => true,
  }),
);

let queues: EventQueues | undefined;
const operatorApi = useTestServer(() => {
  const connection = redis.connection();
  queues = openQueues(connection, redis.prefix);
  const rateLimiter = limiterOn(createRateLimitRedis(redis.redisUrl, { clientName: 'rate-limits-test', timeoutMs: HEALTHY_REDIS_TIMEOUT_MS }));
  return createTestOperatorApp({ pool: db.pool, redis: connection, redisUrl: redis.redisUrl, prefix: redis.prefix, queues, rateLimiter });
});
afterAll(async () => {
  if (queues) await closeQueues(queues);
});

// Two partner APIs whose limiter's Redis fails: nothing listens on the port; a server accepts and never answers.
const logged: Array<Record<string, unknown>> = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line) logged.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});
const captured = pino({ level: 'info' }, capture);
const withoutRedis = useTestServer(() =>
  partnerApp(limiterOn(createRateLimitRedis('redis://127.0.0.1:1', { clientName: 'rate-limits-test', timeoutMs: 100 }), captured), captured),
);
const silentSockets: net.Socket[] = [];
const blackHole = net.createServer((socket) => silentSockets.push(socket));
let blackHoleUrl = '';
// Before the server below is made (beforeAll hooks run in the order they are registered).
beforeAll(async () => {
  await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  blackHoleUrl = `redis://127.0.0.1:${(blackHole.address() as net.AddressInfo).port}`;
});
const withSilentRedis = useTestServer(() =>
  // No ready check, so that the connection counts as ready and the check waits for an answer that never comes.
  partnerApp(limiterOn(new Redis(blackHoleUrl, { commandTimeout: 100, enableReadyCheck: false, enableOfflineQueue: false, maxRetriesPerRequest: 0 }))),
);

let operator: TestAccount;
beforeAll(async () => {
  operator = await createTestAccount(db.pool);
  await Promise.all(listeners.slice(0, 2).map((listener) => listener.subscribed));
}, 30_000);
afterAll(() => {
  for (const listener of listeners) listener.close();
  for (const close of closers) close();
  for (const socket of silentSockets) socket.destroy();
  blackHole.close();
});

const newKey = async (scopes: Parameters<typeof createApiKey>[2]['scopes']) => createApiKey(db.pool, operator.account.id, { name: 'limited', scopes });
const get = (url: string, path: string, key: string) => request(url, 'GET', path, { key });
const burst = (url: string, path: string, key: string, n: number) => Promise.all(Array.from({ length: n }, () => get(url, path, key)));
/** r and t of a RateLimit field value. */
function remainingAndReset(field: string | null): { r: number; t: number } {
  const match = /^"default";r=(\d+);t=(\d+)$/.exec(field ?? '');
  if (!match) throw new Error(`not a RateLimit field of the "default" policy: ${field}`);
  return { r: Number(match[1]), t: Number(match[2]) };
}
const setKeyLimit = (options: Record<string, string | boolean>) =>
  partnerCommands['set-key-limit']!.run({ account: operator.account.id, ...options }, { pool: db.pool, redisUrl: redis.redisUrl, queuePrefix: redis.prefix });

describe('per-key rate limits', () => {
  it('lets exactly the burst through at once; the next request is a 429 problem with Retry-After and the RateLimit fields', async () => {
    const key = await newKey(['ota']);
    const answers = await burst(partner.url, PRODUCTS, key.secret, 5);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    for (const answer of answers) expect(answer.headers.get('ratelimit-policy')).toBe('"default";q=5;w=5');
    expect(answers.map((a) => remainingAndReset(a.headers.get('ratelimit')).r).sort()).toEqual([0, 1, 2, 3, 4]);

    const refused = await get(partner.url, PRODUCTS, key.secret);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ type: `${PROBLEM_BASE}/rate-limited`, title: 'Too Many Requests', status: 429, instance: PRODUCTS });
    expect(refused.body.detail).toMatch(/5 requests per 5 s/);
    expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=5;w=5');
    const { r, t } = remainingAndReset(refused.headers.get('ratelimit'));
    expect(r).toBe(0);
    expect(t).toBeGreaterThanOrEqual(1);
    expect(t).toBeLessThanOrEqual(5);
    expect(refused.headers.get('retry-after')).toBe(String(t));
  });

  it('counts the refusals for the metrics, and an unknown key spends no budget and gets no RateLimit fields', async () => {
    const key = await newKey(['ota']);
    const before = await total(rateLimitedRequestsTotal);
    const statuses = (await burst(partner.url, PRODUCTS, key.secret, 8)).map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    expect((await total(rateLimitedRequestsTotal)) - before).toBe(3);

    const unknown = await get(partner.url, PRODUCTS, 'bk_unknownunknownunknownunknownunkn');
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('ratelimit')).toBeNull();
  });

  it('gives the budget back when the window is over (after Retry-After)', async () => {
    const key = await newKey(['ota']);
    await setKeyLimit({ key: key.id, 'per-second': '1', burst: '1' });
    expect((await get(partner.url, PRODUCTS, key.secret)).status).toBe(200);
    const refused = await get(partner.url, PRODUCTS, key.secret);
    expect(refused.status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, Number(refused.headers.get('retry-after')) * 1000));
    const again = await get(partner.url, PRODUCTS, key.secret);
    expect(again.status).toBe(200);
    expect(again.headers.get('ratelimit-policy')).toBe('"default";q=1;w=1');
    expect(remainingAndReset(again.headers.get('ratelimit')).r).toBe(0);
  });

  it('reserves a large quota in chunks of 1% and still lets exactly the quota through', async () => {
    const key = await newKey(['ota']);
    // 400 requests per 400 s: the window cannot end during the test; a chunk is 4 requests.
    await setKeyLimit({ key: key.id, 'per-second': '1', burst: '400' });
    const redisKey = `${redis.prefix}:rate-limit:${key.id}`;
    const monitor = await new Redis(redis.redisUrl).monitor();
    let checks = 0;
    monitor.on('monitor', (_time: string, args: string[]) => {
      // The script's own commands are shown too; the round trips are the scripts run.
      if (/^eval/i.test(args[0] ?? '') && args.includes(redisKey)) checks++;
    });
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (statuses.length < 420) statuses.push((await get(partner.url, PRODUCTS, key.secret)).status);
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(400);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    monitor.disconnect();
    // One round trip per chunk, and once the quota was spent the refusals did not ask Redis again.
    const counted = Number(await redis.connection().get(redisKey));
    expect(counted % 4).toBe(0);
    expect(counted).toBeGreaterThanOrEqual(400);
    expect(counted).toBeLessThan(400 + 16 * 4);
    expect(checks).toBe(counted / 4);
  });

  it('keeps the budgets of two keys apart, within one account', async () => {
    const [first, second] = [await newKey(['ota']), await newKey(['ota'])];
    await burst(partner.url, PRODUCTS, first.secret, 5);
    expect((await get(partner.url, PRODUCTS, first.secret)).status).toBe(429);
    const other = await get(partner.url, PRODUCTS, second.secret);
    expect(other.status).toBe(200);
    expect(remainingAndReset(other.headers.get('ratelimit')).r).toBe(4);
  });

  it('gives each kind of key its default; a key with several scopes gets the largest, on every API', async () => {
    const usageKey = await newKey(['usage:read']);
    const onUsage = await get(usage.url, SUMMARY, usageKey.secret);
    expect(onUsage.status).toBe(200);
    expect(onUsage.headers.get('ratelimit-policy')).toBe('"default";q=10;w=5');

    const both = await newKey(['ota', 'usage:read']);
    const statuses = (await burst(partner.url, PRODUCTS, both.secret, 11)).map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    // One budget per key, whichever API it calls.
    expect((await get(usage.url, SUMMARY, both.secret)).status).toBe(429);
  });

  it('applies set-key-limit to a running API at once, though the key is cached, and --clear takes the key back to the defaults', async () => {
    const key = await newKey(['ota']);
    const first = await get(partner.url, PRODUCTS, key.secret);
    expect(first.headers.get('ratelimit-policy')).toBe('"default";q=5;w=5');

    const set = (await setKeyLimit({ key: key.prefix, 'per-second': '1', burst: '2' })) as Record<string, unknown>;
    expect(set).toMatchObject({ ID: key.id, RateLimit: { PerSecond: 1, Burst: 2 } });
    expect(set.RunningProcessesNotified).toBeGreaterThanOrEqual(2);
    // The window under way goes on: the first request counts, so one more passes.
    const second = await get(partner.url, PRODUCTS, key.secret);
    expect(second.status).toBe(200);
    expect(second.headers.get('ratelimit-policy')).toBe('"default";q=2;w=2');
    expect(remainingAndReset(second.headers.get('ratelimit')).r).toBe(0);
    expect((await get(partner.url, PRODUCTS, key.secret)).status).toBe(429);

    const listed = (await partnerCommands['list-keys']!.run(
      { account: operator.account.id },
      { pool: db.pool, redisUrl: redis.redisUrl, queuePrefix: redis.prefix },
    )) as Array<Record<string, unknown>>;
    expect(listed.find((k) => k.ID === key.id)).toMatchObject({ RateLimit: { PerSecond: 1, Burst: 2 } });
    expect(listed.find((k) => k.ID !== key.id)).toMatchObject({ RateLimit: null });

    expect(await setKeyLimit({ key: key.id, clear: true })).toMatchObject({ ID: key.id, RateLimit: null });
    // Back to 5 per 5 s: the two requests served so far count (the refused one was refused without counting).
    const cleared = await get(partner.url, PRODUCTS, key.secret);
    expect(cleared.status).toBe(200);
    expect(cleared.headers.get('ratelimit-policy')).toBe('"default";q=5;w=5');
    expect(remainingAndReset(cleared.headers.get('ratelimit')).r).toBe(2);
  });

  it("set-key-limit refuses a bad limit, another account's key and a revoked key, and changes nothing", async () => {
    const key = await newKey(['ota']);
    await expect(setKeyLimit({ key: key.id, 'per-second': '5', burst: '4' })).rejects.toThrow(/--burst at least --per-second/);
    await expect(setKeyLimit({ key: key.id, 'per-second': '0', burst: '4' })).rejects.toThrow(/--per-second must be at least 1/);
    await expect(setKeyLimit({ key: key.id, 'per-second': '1.5', burst: '4' })).rejects.toThrow(/whole number/);
    await expect(setKeyLimit({ key: key.id, clear: true, burst: '4' })).rejects.toThrow(/--clear takes neither/);
    const elsewhere = await createTestAccount(db.pool);
    const foreign = await createApiKey(db.pool, elsewhere.account.id, { name: 'foreign', scopes: ['ota'] });
    await expect(setKeyLimit({ key: foreign.id, 'per-second': '1', burst: '1' })).rejects.toThrow(/has no single active key/);
    await partnerCommands['revoke-key']!.run(
      { account: operator.account.id, key: key.id },
      { pool: db.pool, redisUrl: redis.redisUrl, queuePrefix: redis.prefix },
    );
    await expect(setKeyLimit({ key: key.id, 'per-second': '1', burst: '1' })).rejects.toThrow(/has no single active key/);
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM api_keys WHERE rate_limit_per_second IS NOT NULL AND id = ANY($1)`, [
      [key.id, foreign.id],
    ]);
    expect(rows[0]).toEqual({ n: 0 });
  });
});

describe('per-key rate limits in the OpenAPI document', () => {
  it('gives every keyed operation the 429 answer and the RateLimit fields on its answers, and the sign-in neither', async () => {
    const { body: document } = await request(partner.url, 'GET', '/openapi.json');
    const products = document.paths[PRODUCTS].get;
    expect(products.responses['429']).toEqual({ $ref: '#/components/responses/RateLimited' });
    expect(products.responses['200'].headers).toMatchObject({
      'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
      RateLimit: { $ref: '#/components/headers/RateLimit' },
    });
    expect(document.components.responses.RateLimited.headers['Retry-After'].schema).toEqual({ type: 'integer', minimum: 1 });
    expect(document.components.headers.RateLimit.description).toMatch(/"default";r=/);
    const signIn = document.paths['/api/v2/operator/session'].post;
    expect(signIn.responses['429'].description).toMatch(/failed sign-ins/);
    expect(Object.values(signIn.responses).some((response) => Object.hasOwn((response as { headers?: object }).headers ?? {}, 'RateLimit'))).toBe(false);
  });
});

describe('per-key rate limits on the operator API', () => {
  const ACTIVITIES = '/api/v2/operator/activities';

  it('limits an admin key with the admin default, and never a signed-in console session', async () => {
    const adminKey = await newKey(['admin']);
    const statuses = (await burst(operatorApi.url, ACTIVITIES, adminKey.secret, 4)).map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);

    const email = `owner-${operator.account.id.slice(0, 8)}@example.com`;
    // A password of the user's own: a generated one-time password would allow nothing but changing it.
    const password = 'correct horse battery';
    await createOperatorUser({ pool: db.pool }, { accountId: operator.account.id, email, role: 'owner', password, actor: { kind: 'system' } });
    const signIn = await request(operatorApi.url, 'POST', '/api/v2/operator/session', {
      body: { Email: email, Password: password },
      headers: { origin: operatorApi.url },
    });
    expect(signIn.status).toBe(204);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(operatorApi.url, 'GET', ACTIVITIES, { headers: { cookie } })));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(answers.every((a) => a.headers.get('ratelimit') === null)).toBe(true);
  });
});

describe('per-key rate limits without Redis', () => {
  it("serves every request when nothing answers at Redis's address, counts them and logs once", async () => {
    const before = await total(rateLimiterFailedOpenTotal);
    const answers = await burst(withoutRedis.url, PRODUCTS, operator.key, 20);
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 200));
    expect(answers.every((a) => a.headers.get('ratelimit') === null)).toBe(true);
    expect((await total(rateLimiterFailedOpenTotal)) - before).toBe(20);
    const warnings = logged.filter((line) => typeof line.msg === 'string' && line.msg.startsWith('rate limits: Redis did not answer'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40 });
  });

  it('serves the request when Redis takes its connection and never answers (the check times out)', async () => {
    const before = await total(rateLimiterFailedOpenTotal);
    const answers = await burst(withSilentRedis.url, PRODUCTS, operator.key, 3);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect((await total(rateLimiterFailedOpenTotal)) - before).toBe(3);
    expect(silentSockets.length).toBeGreaterThan(0);
  });
});
