// Two `npm start` stacks on one machine, as two checkouts run them: each with its embedded PostgreSQL, data directory
// and ports, both given the machine's Redis (the same REDIS_URL) and the same demo account. Events accepted by one are
// metered by that one only: each stack's queues carry its database's identity. A stack told to use the other's queue
// prefix refuses to start, naming both databases; and without REDIS_URL a stack with its own PostgreSQL runs its own
// redis-server on EMBEDDED_REDIS_PORT.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { queueOwnerKey } from '@backbone/publisher';
import type { DevState } from '../dev-env.js';
import { quietPort, STACK_START_MS, stackDataDir, stackPort, startStack, waitFor, type Stack } from './stack-support.js';

const sharedRedis = inject('redisUrl');
const EVENTS = 300;
const METER = 'workflow-email-sent';

/** What a developer's shell would not have set: each stack runs its own PostgreSQL and picks its own prefix. */
const UNSET = { DATABASE_URL: undefined, QUEUE_PREFIX: undefined, REDIS_URL: undefined, EMBEDDED_REDIS_PORT: undefined, LOG_LEVEL: 'error' };

async function stackEnv(): Promise<Record<string, string | undefined>> {
  return { ...UNSET, PORT: String(await stackPort()), EMBEDDED_PG_PORT: String(await quietPort()) };
}

const stacks: Stack[] = [];
const dataDirs: string[] = [];
const prefixes = new Set<string>();
let a: Stack;
let b: Stack;
let aState: DevState;
let bState: DevState;
let bEnv: Record<string, string | undefined>;

async function metered(state: DevState): Promise<number> {
  const client = new pg.Client({ connectionString: state.databaseUrl });
  await client.connect();
  try {
    // The stack's mail worker meters the demo bookings' e-mails on the same meter: those are the platform's own, not
    // the events this test publishes.
    const { rows } = await client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM usage_entries
        WHERE meter = $1 AND dedupe_key NOT IN (SELECT 'event:' || event_id FROM mail_messages)`,
      [METER],
    );
    return rows[0]!.count;
  } finally {
    await client.end();
  }
}

function platformKey(stack: Stack): string {
  return (JSON.parse(readFileSync(path.join(stack.dataDir, 'demo-keys.json'), 'utf8')) as Record<string, string>).platform!;
}

/** Publishes `count` platform events through the stack's gateway, 10 at a time; every one must be accepted. */
async function publish(stack: Stack, state: DevState, count: number): Promise<void> {
  const key = platformKey(stack);
  let next = 0;
  const send = async () => {
    while (next < count) {
      next++;
      const response = await fetch(`${state.baseUrl}/api/v2/platform/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ Type: 'workflow-email.sent', EventID: randomUUID() }),
      });
      expect(response.status, await response.text()).toBe(202);
    }
  };
  await Promise.all(Array.from({ length: 10 }, send));
}

function run(env: Record<string, string | undefined>, dataDir: string): Stack {
  const stack = startStack(dataDir, env);
  stacks.push(stack);
  return stack;
}

beforeAll(async () => {
  const [dirA, dirB] = [await stackDataDir(), await stackDataDir()];
  dataDirs.push(dirA, dirB);
  bEnv = await stackEnv();
  a = run({ ...(await stackEnv()), REDIS_URL: sharedRedis }, dirA);
  b = run({ ...bEnv, REDIS_URL: sharedRedis }, dirB);
  [aState, bState] = await Promise.all([a.running(STACK_START_MS), b.running(STACK_START_MS)]);
  prefixes.add(aState.queuePrefix).add(bState.queuePrefix);
}, STACK_START_MS + 30_000);

afterAll(async () => {
  await Promise.all(stacks.map((stack) => stack.stop()));
  await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  const redis = new Redis(sharedRedis);
  for (const prefix of prefixes) {
    let cursor = '0';
    do {
      const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = nextCursor;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  }
  redis.disconnect();
});

// The ceilings of the waits below are far above what a quiet machine takes (every event metered within seconds).
describe('two npm start stacks on one machine', () => {
  it(`sharing one Redis: ${EVENTS} events published to one are metered by it, none by the other`, { timeout: 300_000 }, async () => {
    expect(aState.redisUrl).toBe(sharedRedis);
    expect(bState.redisUrl).toBe(sharedRedis);

    await publish(a, aState, EVENTS);
    // Counted in both databases: a job taken by the other stack's worker is metered there, and never here.
    const counts = await waitFor(
      `${EVENTS} events metered`,
      async () => {
        const both = { a: await metered(aState), b: await metered(bState) };
        return both.a + both.b >= EVENTS ? both : undefined;
      },
      120_000,
      () => a.output() + b.output(),
    );
    expect(counts).toEqual({ a: EVENTS, b: 0 });
    expect(aState.queuePrefix).not.toBe(bState.queuePrefix);
  });

  it("a stack told to use the other's queue prefix refuses to start, naming both databases", { timeout: 300_000 }, async () => {
    expect(await b.stop()).toEqual([0, null]);
    b = run({ ...bEnv, REDIS_URL: sharedRedis, QUEUE_PREFIX: aState.queuePrefix }, b.dataDir);
    const [code] = await b.exited;
    expect(code, b.output()).toBe(1);
    const bPort = new URL(bState.databaseUrl).port;
    const aPort = new URL(aState.databaseUrl).port;
    expect(b.output()).toContain(
      `The queues under prefix '${aState.queuePrefix}' in this Redis belong to another database (database "postgres", schema "public" on 127.0.0.1:${aPort}, system `,
    );
    expect(b.output()).toContain(`This process serves database "postgres", schema "public" on 127.0.0.1:${bPort}, system `);
    expect(b.output()).toContain(`Set QUEUE_PREFIX to a prefix of this database's own.`);
    expect(b.output()).toContain(`delete the Redis key '${queueOwnerKey(aState.queuePrefix)}'`);
    // Before any app was started.
    expect(b.output()).not.toContain('bundling the apps');

    // The other stack's queues still serve it.
    await publish(a, aState, 10);
    await waitFor(
      `${EVENTS + 10} events metered`,
      async () => ((await metered(aState)) === EVENTS + 10 ? true : undefined),
      120_000,
      () => a.output(),
    );
  });

  it('without REDIS_URL, a stack with its own PostgreSQL runs its own redis-server on EMBEDDED_REDIS_PORT', { timeout: STACK_START_MS + 300_000 }, async () => {
    const redisPort = await quietPort();
    b = run({ ...bEnv, EMBEDDED_REDIS_PORT: String(redisPort) }, b.dataDir);
    const state = await b.running(STACK_START_MS);
    prefixes.add(state.queuePrefix);
    expect(state.redisUrl).toBe(`redis://127.0.0.1:${redisPort}`);
    expect(state.pids.redis).toBeGreaterThan(0);
    // Its queues are in its own Redis, under its database's prefix (the same as before: the same database).
    expect(state.queuePrefix).toBe(bState.queuePrefix);
    const own = new Redis(state.redisUrl);
    try {
      expect(JSON.parse((await own.get(queueOwnerKey(state.queuePrefix)))!)).toMatchObject({
        description: expect.stringContaining(`127.0.0.1:${new URL(state.databaseUrl).port}`),
      });
      await publish(b, state, 20);
      await waitFor(
        '20 events metered',
        async () => ((await metered(state)) === 20 ? true : undefined),
        120_000,
        () => b.output(),
      );
      expect(await own.keys(`${state.queuePrefix}:platform-events:*`)).not.toEqual([]);
    } finally {
      own.disconnect();
    }
    const redisPid = state.pids.redis!;
    expect(await b.stop()).toEqual([0, null]);
    expect(() => process.kill(redisPid, 0)).toThrow();
  });
});
