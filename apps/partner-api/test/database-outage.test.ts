// PostgreSQL killed under load. The partner and usage APIs run in-process over a PostgreSQL of this test's own (the
// embedded server, on its own port and data), under a steady load of bookings, usage entries and availability reads;
// first one of its server processes is killed with SIGKILL (PostgreSQL resets every connection and recovers by
// itself), then the postmaster is (the server is gone until it is started again, and recovers from its WAL). Every
// answer must be a 2xx, a 409 of a full timeslot, or a 503 with Retry-After: `/unavailable` when nothing was made (an
// unkeyed request so answered made nothing), `/outcome-unknown` when the connection went with the change on its way;
// never a 500, never a
// dropped connection. Afterwards every request succeeds again, every 201 survived the crash, each timeslot's counter
// equals its live bookings, and a request that got a 503 can be retried with its Idempotency-Key: it is applied once,
// even one whose key was claimed when the server died (the claim is released once the server is back).
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createPool, createUsageWriter, migrate, type Pool, type UsageWriter } from '@backbone/db';
import type { Activity } from '@backbone/domain';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '@backbone/http';
import { createEventPublisher, type EventPublisher } from '@backbone/publisher';
import { createTestUsageApp } from '@backbone/test-apps/usage-api';
import {
  createTestAccount,
  createTestActivity,
  createTestTimeslot,
  embeddedPostgres,
  freePort,
  futureDate,
  serveTestApp,
  useTestRedis,
  waitFor,
  type ProcessRun,
  type RestartableServer,
  type TestServer,
  type TestTimeslot,
} from '@backbone/testkit';
import { bookingBody, createTestPartnerApp, keepAliveClient, PROBLEM_BASE, timeslotLedger, type RawResponse } from './support.js';

const redis = useTestRedis();
const APP = 'outage-apps';
const BOOKING = '/api/v2/ota/partner/booking';
const METERS = '/api/v2/usage/meters';

let dataDir: string;
let postgres: RestartableServer;
let run: ProcessRun;
/** The apps' pool, and the test's own (for set-up, the lock and the checks). */
let appPool: Pool;
let testPool: Pool;
let usageWriter: UsageWriter;
let publisher: EventPublisher;
let partnerApi: TestServer;
let usageApi: TestServer;
let otaKey: string;
let usageKey: string;
let activity: Activity;
/** Room for the whole run; full after 40 places (its 409s are fine); held locked in the second phase. */
let roomy: TestTimeslot;
let small: TestTimeslot;
let held: TestTimeslot;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'backbone-outage-'));
  // Run as root, the embedded server runs as the 'postgres' user, which must reach its data directory below this one.
  await chmod(dataDir, 0o755);
  postgres = await embeddedPostgres({ dataDir: path.join(dataDir, 'data'), port: await freePort(), persistent: false });
  run = await postgres.start();
  await migrate({ databaseUrl: postgres.url });
  appPool = createPool({ connectionString: postgres.url, max: 10, applicationName: APP });
  testPool = createPool({ connectionString: postgres.url, max: 3, applicationName: 'outage-test' });
  const account = await createTestAccount(testPool);
  otaKey = await account.keyWith(['ota']);
  usageKey = await account.keyWith(['usage:write']);
  activity = await createTestActivity(testPool, account.account.id, { maxParticipants: 10 });
  const date = futureDate(8, activity.timeZone);
  roomy = await createTestTimeslot(testPool, activity, { date, time: '09:00', capacity: 100_000 });
  small = await createTestTimeslot(testPool, activity, { date, time: '11:00', capacity: 40 });
  held = await createTestTimeslot(testPool, activity, { date, time: '15:00', capacity: 10 });
  // Keys are trusted for 5 s once verified, as by default in production: during the outage most requests fail in the
  // use cases, not in the key's look-up.
  partnerApi = await serveTestApp(createTestPartnerApp(appPool, { authCacheTtlMs: 5_000 }));
  const connection = redis.connection();
  publisher = createEventPublisher({ connection, prefix: redis.prefix });
  usageWriter = createUsageWriter(appPool);
  usageApi = await serveTestApp(
    createTestUsageApp({ pool: appPool, usageWriter, publisher, redisReady: async () => (await connection.ping()) === 'PONG', authCacheTtlMs: 5_000 }),
  );
});

afterAll(async () => {
  await partnerApi?.close();
  await usageApi?.close();
  await usageWriter?.drain();
  await publisher?.close();
  await appPool?.end();
  await testPool?.end();
  await run?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

type Kind = 'booking' | 'usage' | 'timeslots';

interface Answer {
  kind: Kind;
  /** The request's own id: its PaymentReference or ExtraInfo, and its Idempotency-Key when it sent one. */
  id: string;
  keyed: boolean;
  slot?: TestTimeslot;
  at: number;
  response?: RawResponse;
  /** The transport error, when no answer came. */
  error?: string;
}

let requestCount = 0;

/** A steady load on both APIs until stop(): each loop sends its next request once the last is answered. */
function startLoad() {
  const partner = keepAliveClient(partnerApi.url, 16);
  const usage = keepAliveClient(usageApi.url, 16);
  const answers: Answer[] = [];
  let stopped = false;
  const send = async (kind: Kind, request: (id: string, keyed: boolean) => Promise<RawResponse>, slot?: TestTimeslot) => {
    const id = `outage-${++requestCount}`;
    const keyed = requestCount % 2 === 0;
    const answer: Answer = { kind, id, keyed, slot, at: Date.now() };
    try {
      answer.response = await request(id, keyed);
    } catch (error) {
      answer.error = (error as Error).message;
    }
    answers.push(answer);
    // After a 503 a client waits; much less than Retry-After here, so the outage sees many requests.
    if (answer.response?.status === 503) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  const book = (slot: TestTimeslot) =>
    send(
      'booking',
      (id, keyed) =>
        partner.send('POST', BOOKING, {
          key: otaKey,
          body: bookingBody(activity, slot, { PaymentReference: id }),
          headers: keyed ? { 'idempotency-key': id } : {},
        }),
      slot,
    );
  const record = () =>
    send('usage', (id, keyed) =>
      usage.send('POST', METERS, { key: usageKey, body: { Meter: 'outage', Usage: 1, ExtraInfo: id }, headers: keyed ? { 'idempotency-key': id } : {} }),
    );
  const read = () =>
    send('timeslots', () => partner.send('GET', `/api/v2/ota/partner/availability/${activity.activityId}/timeslots?Date=${roomy.date}`, { key: otaKey }));
  const loop = async (next: () => Promise<void>) => {
    while (!stopped) await next();
  };
  const loops = [loop(() => book(roomy)), loop(() => book(roomy)), loop(() => book(small)), loop(record), loop(record), loop(record), loop(read)];
  return {
    answers,
    /** Waits until each kind has had `n` 2xx answers since `since`. */
    async succeeding(n: number, since: number) {
      await waitFor(
        () => `${n} successes of each kind since the restart`,
        async () => (['booking', 'usage', 'timeslots'] as const).every((kind) => answers.filter((a) => a.kind === kind && a.at >= since && ok(a)).length >= n),
        30_000,
        20,
      );
    },
    async stop() {
      stopped = true;
      await Promise.all(loops);
      partner.close();
      usage.close();
    },
  };
}

const ok = (answer: Answer) => answer.response !== undefined && answer.response.status >= 200 && answer.response.status < 300;

/** A 503 as an outage must answer it: the `/unavailable` or `/outcome-unknown` problem with Retry-After. */
const unavailable = (answer: Answer) =>
  answer.response?.status === 503 &&
  [`${PROBLEM_BASE}/unavailable`, `${PROBLEM_BASE}/outcome-unknown`].includes(answer.response.body?.type as string) &&
  answer.response.headers['retry-after'] === String(UNAVAILABLE_RETRY_AFTER_SECONDS) &&
  /^application\/problem\+json/.test(answer.response.headers['content-type'] ?? '');

/** Only the small timeslot fills up. */
const full = (answer: Answer) =>
  answer.slot === small && answer.response?.status === 409 && answer.response.body?.type === `${PROBLEM_BASE}/insufficient-capacity`;

/** Answers that are none of those, counted by what they were. */
function unexpected(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) {
    if (ok(answer) || unavailable(answer) || full(answer)) continue;
    const what = answer.error
      ? `${answer.kind}: no answer (${answer.error})`
      : `${answer.kind}: ${answer.response!.status} ${String(answer.response!.body?.detail ?? answer.response!.text).slice(0, 120)}`;
    counts[what] = (counts[what] ?? 0) + 1;
  }
  return counts;
}

/** Sends `send` until the answer is not 409 /idempotency-in-progress (the first request's claim not yet released). */
async function retried(send: () => Promise<RawResponse>): Promise<RawResponse> {
  let response = await send();
  await waitFor(
    "the failed request's claim released",
    async () => {
      if (response.status !== 409 || response.body?.type !== `${PROBLEM_BASE}/idempotency-in-progress`) return true;
      response = await send();
      return false;
    },
    // A ceiling far above the usual second: on a busy machine the failed request's handler ends (and releases its
    // claim) late, and the full suite once took longer than 10 s there.
    60_000,
    100,
  );
  return response;
}

describe('PostgreSQL killed under load', () => {
  it('every answer is a 2xx, a full timeslot or a 503 with Retry-After; then everything succeeds, nothing is lost, oversold or applied twice', async () => {
    const load = startLoad();
    let heldAnswer: Promise<RawResponse> | undefined;
    const heldKey = 'outage-held';
    let phases: { crashAt: number; killAt: number; restartAt: number };
    try {
      await load.succeeding(20, 0);

      // One server process dies: the postmaster ends every other one and recovers, without a restart from outside.
      const crashAt = Date.now();
      const { rows: backends } = await testPool.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = $1 LIMIT 1`, [APP]);
      process.kill(backends[0]!.pid, 'SIGKILL');
      await load.succeeding(20, crashAt + 1);

      // A keyed booking is made to wait on a lock of the held timeslot, with its key already claimed, when the server dies.
      const lock = new pg.Client({ connectionString: postgres.url });
      lock.on('error', () => undefined);
      await lock.connect();
      await lock.query('BEGIN');
      await lock.query('SELECT 1 FROM timeslots WHERE id = $1 FOR UPDATE', [held.id]);
      const { rows: locker } = await lock.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const partner = keepAliveClient(partnerApi.url, 1);
      heldAnswer = partner
        .send('POST', BOOKING, { key: otaKey, body: bookingBody(activity, held, { PaymentReference: heldKey }), headers: { 'idempotency-key': heldKey } })
        .finally(() => partner.close());
      await waitFor('the held booking waiting on the lock', async () => {
        const { rows } = await testPool.query(`SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [locker[0]!.pid]);
        return rows.length === 1;
      });

      // The postmaster dies: nothing listens until it is started again.
      const postmasterPid = Number((await readFile(path.join(dataDir, 'data', 'postmaster.pid'), 'utf8')).split('\n')[0]);
      const killAt = Date.now();
      process.kill(postmasterPid, 'SIGKILL');
      await run.exited;
      await waitFor(
        () => `503s of both APIs while the server is down (other answers: ${JSON.stringify(unexpected(load.answers))})`,
        async () => {
          const down = load.answers.filter((a) => a.at > killAt && unavailable(a));
          return Date.now() - killAt > 500 && down.some((a) => a.kind === 'booking') && down.some((a) => a.kind === 'usage');
        },
      );
      // Its orphaned server processes exit as they notice; until then a new postmaster refuses to start on the data.
      let restarted: ProcessRun | undefined;
      for (let attempt = 0; !restarted; attempt++) {
        try {
          restarted = await postgres.start();
        } catch (error) {
          if (attempt >= 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      run = restarted;
      const restartAt = Date.now();
      await load.succeeding(20, restartAt);
      phases = { crashAt, killAt, restartAt };
    } finally {
      await load.stop();
    }

    const answers = load.answers;
    expect(unexpected(answers)).toEqual({});
    const during = (from: number, to: number) => answers.filter((a) => a.at >= from && a.at < to && unavailable(a));
    for (const [from, to] of [
      [phases.crashAt, phases.killAt],
      [phases.killAt, phases.restartAt],
    ] as const) {
      expect(during(from, to).filter((a) => a.kind === 'booking').length).toBeGreaterThan(0);
      expect(during(from, to).filter((a) => a.kind === 'usage').length).toBeGreaterThan(0);
    }

    // The booking whose key was claimed when the server died: a 503, and its key books once the server is back.
    const heldFirst = await heldAnswer;
    expect(heldFirst.status).toBe(503);
    const partner = keepAliveClient(partnerApi.url, 4);
    const usage = keepAliveClient(usageApi.url, 4);
    try {
      const heldRetry = await retried(() =>
        partner.send('POST', BOOKING, {
          key: otaKey,
          body: bookingBody(activity, held, { PaymentReference: heldKey }),
          headers: { 'idempotency-key': heldKey },
        }),
      );
      expect(heldRetry.status).toBe(201);

      // Every keyed request that got a 503, retried with its key: applied (or found applied), never twice.
      const failedKeyed = answers.filter((a) => a.keyed && unavailable(a) && a.kind !== 'timeslots');
      for (const answer of failedKeyed) {
        const retry = await retried(() =>
          answer.kind === 'booking'
            ? partner.send('POST', BOOKING, {
                key: otaKey,
                body: bookingBody(activity, answer.slot!, { PaymentReference: answer.id }),
                headers: { 'idempotency-key': answer.id },
              })
            : usage.send('POST', METERS, {
                key: usageKey,
                body: { Meter: 'outage', Usage: 1, ExtraInfo: answer.id },
                headers: { 'idempotency-key': answer.id },
              }),
        );
        expect(retry.status === 201 || full({ ...answer, response: retry }), `${answer.kind} ${answer.id}: ${retry.status} ${retry.text}`).toBe(true);
      }
    } finally {
      partner.close();
      usage.close();
    }

    // Every 201 survived the crash; no request made two bookings or two entries.
    const created = (kind: Kind) => answers.filter((a) => a.kind === kind && a.response?.status === 201);
    const { rows: bookings } = await testPool.query<{ reference: string; payment_reference: string }>('SELECT reference, payment_reference FROM bookings');
    const references = new Set(bookings.map((b) => b.reference));
    expect(created('booking').filter((a) => !references.has(a.response!.body.Reference as string))).toEqual([]);
    const { rows: entries } = await testPool.query<{ id: number; extra_info: string }>(`SELECT id, extra_info FROM usage_entries WHERE meter = 'outage'`);
    const entryIds = new Set(entries.map((e) => e.id));
    expect(created('usage').filter((a) => !entryIds.has(a.response!.body.data.ID as number))).toEqual([]);
    // An unkeyed request told /unavailable made nothing: a client that sends it again books or counts once.
    const nothingMade = (a: Answer) => !a.keyed && a.response?.body?.type === `${PROBLEM_BASE}/unavailable`;
    const paid = new Set(bookings.map((b) => b.payment_reference));
    const counted = new Set(entries.map((e) => e.extra_info));
    expect(
      answers
        .filter((a) => nothingMade(a) && (a.kind === 'booking' ? paid.has(a.id) : a.kind === 'usage' && counted.has(a.id)))
        .map((a) => `${a.kind} ${a.id} ${a.at - phases.crashAt}ms ${a.response?.body?.detail as string}`),
    ).toEqual([]);
    const twice = (values: string[]) => values.filter((value, i) => values.indexOf(value) !== i);
    expect(twice(bookings.map((b) => b.payment_reference))).toEqual([]);
    expect(twice(entries.map((e) => e.extra_info))).toEqual([]);

    // Each timeslot's counter is its live bookings, within its capacity.
    for (const slot of [roomy, small, held]) {
      const ledger = await timeslotLedger(testPool, slot.id);
      expect(ledger.booked).toBe(ledger.live);
      expect(ledger.booked).toBeLessThanOrEqual(ledger.capacity);
    }
  });
});
