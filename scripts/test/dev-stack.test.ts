// The stack `npm start` runs, started the same way (scripts/start.mjs) against a throwaway database, a data directory
// and a queue prefix of its own: while platform events are being published, the partner API, the usage API and the
// metering worker are each killed with SIGKILL. The stack answers again (how soon is logged: seconds on a quiet
// machine; a speed the bench would measure, not this test), every event that got a 202 becomes exactly one usage
// entry, and SIGTERM still stops everything cleanly.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useTestRedis } from '@backbone/testkit';
import { sleep, STACK_START_MS, stackDataDir, stackPort, startStack, waitFor as waitForStack, type Stack } from './stack-support.js';

const redis = useTestRedis();
const database = `stack_${randomBytes(6).toString('hex')}`;
const serverUrl = new URL(inject('databaseUrl'));
serverUrl.pathname = '/postgres';
const databaseUrl = new URL(serverUrl);
databaseUrl.pathname = `/${database}`;

let stack: Stack;

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const state = () => stack.state();
/** Ceilings far above what a quiet machine takes (a restart: about a second; every event metered: a few). */
const waitFor = <T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number) =>
  waitForStack(what, probe, timeoutMs, () => stack.output());

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  await admin((client) => client.query(`CREATE DATABASE ${database}`));
  stack = startStack(await stackDataDir(), {
    PORT: String(await stackPort()),
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: redis.redisUrl,
    QUEUE_PREFIX: redis.prefix,
    LOG_LEVEL: 'error',
    // A killed worker's active jobs go back to the queue once their lock expires: 2 s here instead of 30.
    WORKER_LOCK_DURATION_MS: '2000',
    WORKER_STALLED_INTERVAL_MS: '1000',
  });
  await stack.running(STACK_START_MS);
}, STACK_START_MS + 30_000);

afterAll(async () => {
  if (stack) {
    await stack.stop();
    await rm(stack.dataDir, { recursive: true, force: true });
  }
  await admin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
});

describe('npm start supervises its processes', () => {
  it('restarts each app killed with SIGKILL, loses no accepted event, and stops cleanly on SIGTERM', { timeout: 600_000 }, async () => {
    const { baseUrl } = state()!;
    const keys = JSON.parse(readFileSync(path.join(stack.dataDir, 'demo-keys.json'), 'utf8')) as Record<string, string>;
    const accepted = new Set<string>();
    const unanswered = new Set<string>();
    let publishing = true;

    const publish = async () => {
      while (publishing) {
        const eventId = randomUUID();
        try {
          const response = await fetch(`${baseUrl}/api/v2/platform/events`, {
            method: 'POST',
            headers: { authorization: `Bearer ${keys.platform}`, 'content-type': 'application/json' },
            body: JSON.stringify({ Type: 'workflow-email.sent', EventID: eventId }),
          });
          await response.arrayBuffer();
          if (response.status === 202) {
            accepted.add(eventId);
            continue;
          }
        } catch {
          // the connection with the usage API broke
        }
        unanswered.add(eventId);
        await sleep(50); // no busy loop against a restarting API on a small machine
      }
    };
    const publishers = Array.from({ length: 3 }, publish);

    const from = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const summary = () => fetch(`${baseUrl}/api/v2/usage/meters?from=${from}&to=${to}`, { headers: { authorization: `Bearer ${keys.usage}` } });
    // Both APIs answer through the gateway: /readyz reaches the partner API, the summary the usage API.
    const answers = async () => {
      const [ready, usage] = await Promise.all([fetch(`${baseUrl}/readyz`).catch(() => null), summary().catch(() => null)]);
      return ready?.status === 200 && usage?.status === 200 ? true : undefined;
    };
    await waitFor('the first events', () => (accepted.size >= 50 ? true : undefined), 60_000);

    const recovery: Record<string, number> = {};
    for (const name of ['partner-api', 'usage-api', 'metering-worker']) {
      const killed = state()!.pids[name]!;
      const before = accepted.size;
      process.kill(killed, 'SIGKILL');
      const killedAt = Date.now();
      await waitFor(
        `a new ${name}`,
        () => {
          const pid = state()?.pids[name];
          return pid !== undefined && pid !== killed ? pid : undefined;
        },
        60_000,
      );
      await waitFor('the stack to answer again', answers, 120_000);
      recovery[name] = Date.now() - killedAt;
      // Events flow again before the next kill.
      await waitFor('more events', () => (accepted.size >= before + 50 ? true : undefined), 60_000);
    }
    publishing = false;
    await Promise.all(publishers);
    expect(stack.output()).toMatch(/partner-api ended \(signal SIGKILL\); restarting it in \d+ ms/);
    expect(stack.output()).toMatch(/usage-api ended \(signal SIGKILL\); restarting it in \d+ ms/);
    expect(stack.output()).toMatch(/metering-worker ended \(signal SIGKILL\); restarting it in \d+ ms/);

    // Every accepted event becomes exactly one entry. An event whose answer was lost with a killed usage API may
    // have been queued all the same (its publisher would retry with the same EventID): it may have an entry too.
    const client = new pg.Client({ connectionString: databaseUrl.toString() });
    await client.connect();
    // The stack's mail worker meters the demo bookings' e-mails on the same meter: those are the platform's own, not this test's.
    const metered = async () =>
      (
        await client.query<{ dedupe_key: string }>(
          `SELECT dedupe_key FROM usage_entries
            WHERE meter = 'workflow-email-sent' AND dedupe_key NOT IN (SELECT 'event:' || event_id FROM mail_messages)`,
        )
      ).rows.map((r) => r.dedupe_key.slice('event:'.length));
    const mailed = async () =>
      (
        await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM usage_entries WHERE meter = 'workflow-email-sent' AND dedupe_key IN (SELECT 'event:' || event_id FROM mail_messages)`,
        )
      ).rows[0]!.n;
    const missing = () => metered().then((ids) => [...accepted].filter((id) => !ids.includes(id)));
    await waitFor(`all ${accepted.size} accepted events metered`, async () => ((await missing()).length === 0 ? true : undefined), 120_000).catch(
      async (error: Error) => {
        throw new Error(`${(await missing()).length} of ${accepted.size} accepted events have no entry. ${error.message}`);
      },
    );
    const entries = await metered();
    const platformEmails = await mailed();
    await client.end();
    expect(entries.filter((id) => !accepted.has(id) && !unanswered.has(id))).toEqual([]);
    expect(new Set(entries).size).toBe(entries.length);
    const { data } = (await (await summary()).json()) as { data: { Meters: Array<{ Meter: string; EventCount: number }> } };
    expect(data.Meters.find((m) => m.Meter === 'workflow-email-sent')?.EventCount).toBe(entries.length + platformEmails);
    console.log(
      `[stack test] ${accepted.size} events accepted, ${unanswered.size} refused or unanswered during the kills, ${entries.length} metered; back after (ms) ${JSON.stringify(recovery)}`,
    );

    // The apps used this test's queue prefix.
    const connection = new Redis(redis.redisUrl);
    const queueKeys = await connection.keys(`${redis.prefix}:platform-events:*`);
    connection.disconnect();
    expect(queueKeys.length).toBeGreaterThan(0);

    const pids = Object.values(state()!.pids);
    expect(await stack.stop()).toEqual([0, null]);
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
