// The partner booking lifecycle (issue 11): confirm and cancel next to a bare Express handler running the same use
// cases, their latency at a steady half-ceiling rate, and a hot timeslot where half of the requests are holds that
// expire within seconds, checked for oversell and for a counter equal to the live bookings afterwards.
import { createApiKey } from '@backbone/db';
import { ceilingBundle } from '../lib/build.js';
import { startServer, startWorker, type BenchContext } from '../lib/context.js';
import { addDays, createBenchAccount, hours, insertActivity, insertTimeslots } from '../lib/fixtures.js';
import {
  describeStatuses,
  medianBy,
  medianByP99,
  medianRound,
  PACED_ROUNDS,
  runLoad,
  shareOf,
  sidesInRound,
  summarize,
  THROUGHPUT_ROUNDS,
  type LoadOptions,
  type LoadResult,
  type Rounds,
} from '../lib/load.js';
import { runPaced, type PacedRequest } from '../lib/paced.js';
import { ensureRunning } from '../lib/processes.js';
import { fmt, type Row, type Section } from '../lib/report.js';
import { API_NODE_OPTIONS } from '../../scripts/dev-env.js';

const TIME_ZONE = 'Europe/Berlin';
const PACED_SEC = 8;
const PACED_WARMUP_SEC = 2;
const LATENCY_TARGET_MS = 50;
/** Bookings/s the hot timeslot must answer 201, holds included. */
const HOT_TARGET = 500;
/** The aged holds expire 1 to 3 s after they were made. */
const HOLD_LIFE_SEC = { min: 1, max: 3 };
/** First guess of a closed-loop rate, for the stock of the first run; later runs stock for twice the best seen. */
const FIRST_RATE_GUESS = 2_000;

const CUSTOMER = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+49 30 1234567' };

export interface LifecycleFixture {
  accountId: string;
  key: string;
  partnerId: string;
  activityId: string;
  /** The activity's internal id, for the SQL that stocks bookings. */
  activity: number;
  apiKeyId: string;
  /** The activity's timeslot ids, days interleaved, for spreading the stock. */
  timeslots: number[];
  /** The local date and time of each of `timeslots`, in the same order (where a move goes). */
  slots: Array<{ date: string; time: string }>;
  /** `timeslots`: the row ids of the two hot timeslots (ours, the ceiling's), whose holds the driver ages. */
  hot: { activityId: string; date: string; time: { ours: string; ceiling: string }; timeslots: number[] };
}

export async function createLifecycleFixture(ctx: BenchContext, hotCapacity: number): Promise<LifecycleFixture> {
  const accountId = await createBenchAccount(ctx.pool, 'bench lifecycle operator', TIME_ZONE);
  const key = await createApiKey(ctx.pool, accountId, { name: 'bench lifecycle ota', scopes: ['ota'] });
  const lifecycle = await insertActivity(ctx.pool, accountId, 'Kayak tour (lifecycle)');
  // The day after tomorrow in the operator's zone: no slot has started, and no cancellation window has closed.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const first = addDays(today, 2);
  // 1,440 timeslots: consecutive bookings of the stock sit on different timeslot rows.
  await insertTimeslots(ctx.pool, accountId, lifecycle.id, first, 90, hours(6, 16), 1_000_000);
  const { rows: timeslots } = await ctx.pool.query<{ id: string; date: string; time: string }>(
    `SELECT id, to_char(local_date, 'YYYY-MM-DD') AS date, to_char(local_time, 'HH24:MI') AS time
       FROM timeslots WHERE account_id = $1 AND activity_id = $2 ORDER BY local_time, local_date`,
    [accountId, lifecycle.id],
  );
  const hot = await insertActivity(ctx.pool, accountId, 'Sunset cruise (hot, lifecycle)');
  await insertTimeslots(ctx.pool, accountId, hot.id, first, 1, ['10:00', '11:00'], hotCapacity);
  const { rows: hotSlots } = await ctx.pool.query<{ id: string }>('SELECT id FROM timeslots WHERE account_id = $1 AND activity_id = $2', [accountId, hot.id]);
  return {
    accountId,
    key: key.secret,
    partnerId: key.partnerId!,
    apiKeyId: key.id,
    activityId: lifecycle.activityId,
    activity: lifecycle.id,
    timeslots: timeslots.map((t) => Number(t.id)),
    slots: timeslots.map((t) => ({ date: t.date, time: t.time })),
    hot: { activityId: hot.activityId, date: first, time: { ours: '10:00', ceiling: '11:00' }, timeslots: hotSlots.map((t) => Number(t.id)) },
  };
}

// Booking references as the API draws them (8 characters of this alphabet), here counted up from a random start so
// that a stock of any size is unique without a round trip per reference.
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
let nextReference = Math.floor(Math.random() * 2 ** 38);
export function drawReference(): string {
  let n = nextReference++;
  let text = '';
  for (let i = 0; i < 8; i++) {
    text = ALPHABET[n % 32]! + text;
    n = Math.floor(n / 32);
  }
  return `${text.slice(0, 4)}-${text.slice(4)}`;
}

/**
 * `count` fresh bookings of the fixture's partner, `on_hold` (for 60 minutes) or `confirmed`, spread round-robin over
 * the activity's 1,440 timeslots, their places counted in the timeslots as the reservation counts them. Written with
 * SQL outside every measured window: each confirm or cancel of the load needs a booking of its own, and making them
 * through the API would take longer than the runs themselves. `octo`: each also gets the OCTO identity a reservation
 * gives it (a uuid and one adult unit item, as setOctoIdentity writes them).
 */
export async function stockBookings(
  ctx: BenchContext,
  fixture: LifecycleFixture,
  status: 'on_hold' | 'confirmed',
  count: number,
  options: { octo?: boolean } = {},
): Promise<Stocked[]> {
  const references: Stocked[] = [];
  const CHUNK = 20_000;
  for (let done = 0; done < count; done += CHUNK) {
    const batch = Array.from({ length: Math.min(CHUNK, count - done) }, drawReference);
    const slots = batch.map((_, i) => fixture.timeslots[(done + i) % fixture.timeslots.length]!);
    const { rows } = await ctx.pool.query<{ reference: string; octo_uuid: string | null }>(
      `WITH made AS (
         INSERT INTO bookings (account_id, reference, activity_id, timeslot_id, channel, participants, customer, payment_reference, api_key_id, partner_id, status, expires_at,
                               octo_uuid, octo_unit_items)
         SELECT $1, r.reference, $2, r.timeslot_id, 'ota', 1, $3::jsonb, 'PAY-' || r.reference, $4, $5, $6,
                CASE WHEN $6 = 'on_hold' THEN now() + interval '60 minutes' END,
                CASE WHEN $9 THEN gen_random_uuid() END,
                CASE WHEN $9 THEN jsonb_build_array(jsonb_build_object('uuid', gen_random_uuid(), 'unitId', 'adult')) END
           FROM unnest($7::text[], $8::bigint[]) AS r(reference, timeslot_id)
         ON CONFLICT (reference) DO NOTHING
         RETURNING reference, timeslot_id, octo_uuid
       ), counted AS (
         UPDATE timeslots t SET booked = t.booked + m.n
           FROM (SELECT timeslot_id, count(*)::int AS n FROM made GROUP BY timeslot_id) m WHERE t.id = m.timeslot_id
       )
       SELECT reference, octo_uuid FROM made`,
      [fixture.accountId, fixture.activity, JSON.stringify(CUSTOMER), fixture.apiKeyId, fixture.partnerId, status, batch, slots, options.octo === true],
    );
    const made = new Map(rows.map((r) => [r.reference, r.octo_uuid]));
    batch.forEach((reference, i) => {
      const octoUuid = made.get(reference);
      if (octoUuid !== undefined) references.push({ reference, slot: (done + i) % fixture.timeslots.length, ...(octoUuid ? { octoUuid } : {}) });
    });
  }
  return references;
}

/** A stocked booking and the position of its timeslot in the fixture's `timeslots` (and its OCTO uuid, when it has one). */
export interface Stocked {
  reference: string;
  slot: number;
  octoUuid?: string;
}

/** confirm and cancel (issue 11), and move: PATCH booking/{Reference} to the timeslot half the list away (issue 25). */
export type Transition = 'confirm' | 'cancel' | 'move';

const partnerHeaders = (fixture: LifecycleFixture) => ({ authorization: `Bearer ${fixture.key}`, 'content-type': 'application/json' });

/**
 * The timeslot half the fixture's list away from a stocked booking's: a move leaves one timeslot row and takes another
 * that no neighbouring request of the run touches, so the figure is the move's own cost, not a queue on one row.
 */
export function farSlot(fixture: LifecycleFixture, stocked: Stocked): { date: string; time: string } {
  return fixture.slots[(stocked.slot + Math.floor(fixture.slots.length / 2)) % fixture.slots.length]!;
}

/** Date and Time of a move, as both the partner PATCH and the operator's reschedule take them. */
export const moveBody = (slot: { date: string; time: string }) => JSON.stringify({ Date: slot.date, Time: slot.time });

function transitionBody(transition: 'confirm' | 'cancel', n: number): string {
  return transition === 'confirm'
    ? JSON.stringify({ Customer: { ...CUSTOMER, LastName: `Lovelace ${n}` }, PaymentReference: `PAY-CONFIRM-${n}` })
    : JSON.stringify({ Reason: 'The traveller asked for a refund.' });
}

/**
 * Writes that each take a booking of their own from a stock made before each run: what a row is called, how the stock
 * is made, and the request that uses one stocked booking (the `n`th of the run).
 */
export interface StockedWrites {
  name: string;
  stock: (count: number) => Promise<Stocked[]>;
  headers: Record<string, string>;
  request: (stocked: Stocked, n: number) => { method: string; path: string; body?: string };
}

/** Requests that each take the next booking of `references`; `used()` says how many were sent. */
function stockedRequests(writes: StockedWrites, references: Stocked[]) {
  let n = 0;
  return {
    next(): PacedRequest {
      const stocked = references[n] ?? references.at(-1)!;
      n += 1;
      return { ...writes.request(stocked, n), headers: writes.headers };
    },
    used: () => n,
  };
}

/** The same requests for autocannon: headers once, method, path and body per request. */
function autocannonRequests(headers: Record<string, string>, next: () => PacedRequest): Pick<LoadOptions, 'method' | 'headers' | 'setupRequest'> {
  return {
    method: 'POST',
    headers,
    setupRequest: (request) => {
      const built = next();
      return { ...request, method: built.method, path: built.path, body: built.body! };
    },
  };
}

function unexpected(result: LoadResult, expected: number): string | null {
  if (result.requests === 0) return 'no responses';
  if (shareOf(result, (s) => s === expected) < 1 || result.errors > 0 || result.timeouts > 0)
    return `unexpected answers: ${describeStatuses(result)}, ${result.errors} socket errors, ${result.timeouts} timeouts`;
  return null;
}

export interface TransitionFigures {
  rows: Row[];
  problems: string[];
}

export async function measureTransition(
  ctx: BenchContext,
  fixture: LifecycleFixture,
  transition: Transition,
  urls: { ours: string; ceiling: string },
  roundSec: number,
): Promise<TransitionFigures> {
  const status = transition === 'confirm' ? 'on_hold' : 'confirmed';
  const writes: StockedWrites = {
    name: transition === 'move' ? 'PATCH booking/{Reference} (move to another timeslot)' : `POST booking/{Reference}/${transition}`,
    stock: (count) => stockBookings(ctx, fixture, status, count),
    headers: partnerHeaders(fixture),
    request: (stocked, n) =>
      transition === 'move'
        ? { method: 'PATCH', path: `/api/v2/ota/partner/booking/${stocked.reference}`, body: moveBody(farSlot(fixture, stocked)) }
        : { method: 'POST', path: `/api/v2/ota/partner/booking/${stocked.reference}/${transition}`, body: transitionBody(transition, n) },
  };
  return measureStockedWrites(ctx, writes, urls, roundSec);
}

/**
 * Throughput of `writes` next to the ceiling in alternating rounds, then their latency at a steady half-ceiling rate;
 * every request on a fresh booking of the stock, and every answer must be 200.
 */
export async function measureStockedWrites(
  ctx: BenchContext,
  writes: StockedWrites,
  urls: { ours: string; ceiling: string },
  roundSec: number,
): Promise<TransitionFigures> {
  const { name } = writes;
  const problems: string[] = [];
  let bestRate = 0;
  // One closed-loop run on fresh bookings: stocked for twice the best rate seen so far, and never more requests than
  // the stock (a booking confirmed or cancelled twice would answer the cheap "unchanged" path and flatter the figure).
  const closedRun = async (url: string, seconds: number): Promise<LoadResult> => {
    const references = await writes.stock(Math.ceil((bestRate || FIRST_RATE_GUESS) * 2 * seconds) + 1_000);
    const requests = stockedRequests(writes, references);
    const result = await runLoad({
      url,
      connections: ctx.connections,
      durationSec: seconds,
      maxRequests: references.length,
      ...autocannonRequests(writes.headers, () => requests.next()),
    });
    if (result.requests >= references.length) problems.push(`${name}: a run used up its ${references.length} pre-created bookings before its time was up`);
    bestRate = Math.max(bestRate, result.rps);
    return result;
  };

  const rounds: Rounds = { ours: [], ceiling: [] };
  for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
    for (const side of sidesInRound(round)) {
      const warmup = round === 0 ? ctx.warmupSec : 1;
      if (warmup > 0) await closedRun(urls[side], warmup);
      const result = await closedRun(urls[side], roundSec);
      ctx.log(`  ${side === 'ours' ? 'ours:   ' : 'ceiling:'} ${summarize(result)}`);
      const issue = unexpected(result, 200);
      if (issue) problems.push(`${name} (${side}): ${issue}`);
      rounds[side].push(result);
    }
  }
  const median = medianRound(rounds, (r) => r.rps);
  const rows: Row[] = [
    {
      metric: `${name}: req/s`,
      ours: fmt.int(median.ours.rps),
      ceiling: fmt.int(median.ceiling.rps),
      ratio: `${fmt.pct(median.ratio)} (rounds ${median.ratios.map(fmt.pct).join(', ')})`,
      target: '>= 70% of ceiling',
      pass: rounds.ours.every((r) => unexpected(r, 200) === null) && median.ratio >= 0.7,
    },
    {
      metric: `${name}: p50 / p99 ms at full load`,
      ours: `${fmt.ms(median.ours.p50)} / ${fmt.ms(median.ours.p99)}`,
      ceiling: `${fmt.ms(median.ceiling.p50)} / ${fmt.ms(median.ceiling.p99)}`,
    },
  ];

  const rate = Math.max(1, Math.round(medianBy(rounds.ceiling, (r) => r.rps).rps / 2));
  const paced: Rounds = { ours: [], ceiling: [] };
  for (let round = 0; round < PACED_ROUNDS; round++) {
    for (const side of ['ours', 'ceiling'] as const) {
      // The warm-up and the measured window draw from one stock; a tenth more for the requests a late timer catches up.
      const references = await writes.stock(Math.ceil(rate * (PACED_SEC + PACED_WARMUP_SEC) * 1.1) + 100);
      const requests = stockedRequests(writes, references);
      const result = await runPaced({
        url: urls[side],
        connections: ctx.connections,
        rate,
        durationSec: PACED_SEC,
        warmupSec: PACED_WARMUP_SEC,
        request: () => requests.next(),
      });
      if (requests.used() > references.length) problems.push(`${name} paced: used up its ${references.length} pre-created bookings`);
      const issue = unexpected(result, 200);
      if (issue) problems.push(`${name} paced (${side}): ${issue}`);
      paced[side].push(result);
    }
  }
  ctx.log(
    `  paced at ${rate}/s, p99 of each round: ours ${paced.ours.map((r) => fmt.ms(r.p99)).join(', ')}; ceiling ${paced.ceiling.map((r) => fmt.ms(r.p99)).join(', ')}`,
  );
  const [mine, bare] = [medianByP99(paced.ours), medianByP99(paced.ceiling)];
  rows.push({
    metric: `${name}: p50 / p99 ms at a steady ${fmt.int(rate)} req/s (half the ceiling's maximum), median of ${PACED_ROUNDS} rounds`,
    ours: `${fmt.ms(mine.p50)} / ${fmt.ms(mine.p99)} (p99s ${paced.ours.map((r) => fmt.ms(r.p99)).join(', ')})`,
    ceiling: `${fmt.ms(bare.p50)} / ${fmt.ms(bare.p99)} (p99s ${paced.ceiling.map((r) => fmt.ms(r.p99)).join(', ')})`,
    target: `p99 < ${LATENCY_TARGET_MS} ms`,
    pass: paced.ours.every((r) => unexpected(r, 200) === null) && mine.p99 < LATENCY_TARGET_MS,
  });
  return { rows, problems };
}

interface HotTally {
  capacity: number;
  booked: number;
  confirmed: number;
  liveHolds: number;
  lapsedHolds: number;
  expired: number;
  bookings: number;
}

async function tallyHot(ctx: BenchContext, fixture: LifecycleFixture, time: string): Promise<HotTally> {
  const { rows } = await ctx.pool.query<{ [K in keyof HotTally]: string | number }>(
    `SELECT t.capacity, t.booked,
            coalesce(sum(b.participants) FILTER (WHERE b.status = 'confirmed'), 0) AS confirmed,
            coalesce(sum(b.participants) FILTER (WHERE b.status = 'on_hold' AND b.expires_at > now()), 0) AS "liveHolds",
            coalesce(sum(b.participants) FILTER (WHERE b.status = 'on_hold' AND b.expires_at <= now()), 0) AS "lapsedHolds",
            coalesce(sum(b.participants) FILTER (WHERE b.status = 'expired'), 0) AS expired,
            count(b.id) AS bookings
       FROM timeslots t
       JOIN activities a ON a.account_id = t.account_id AND a.id = t.activity_id
       LEFT JOIN bookings b ON b.timeslot_id = t.id
      WHERE t.account_id = $1 AND a.activity_id = $2 AND t.local_date = $3 AND t.local_time = $4
      GROUP BY t.id`,
    [fixture.accountId, fixture.hot.activityId, fixture.hot.date, time],
  );
  const row = rows[0]!;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as unknown as HotTally;
}

/**
 * Ages every hold of the hot timeslots to expire 1 to 3 s from now, 10 times a second, until stopped: the API's
 * shortest hold is a minute, too long for places to come back within a run of seconds.
 */
function startAgingHolds(ctx: BenchContext, fixture: LifecycleFixture): { stop(): Promise<void> } {
  let running = true;
  let failure: Error | null = null;
  const loop = (async () => {
    while (running) {
      await ageHolds(ctx, fixture);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })().catch((error: unknown) => {
    // Kept for stop(): thrown here, nobody would be waiting for it and the whole bench would die.
    failure = error instanceof Error ? error : new Error(`aging the holds failed: ${JSON.stringify(error)}`);
  });
  return {
    async stop() {
      running = false;
      await loop;
      if (failure) throw failure;
    },
  };
}

/**
 * Sets every hold of the hot timeslots still on the API's own expiry to expire 1 to 3 s from now. By the timeslots'
 * ids, through the holds' own index (bookings_holds_idx): the join by activity and date that this was first, planned
 * on statistics taken before the confirm stock's tens of thousands of holds were written, looped over those holds
 * and scanned the timeslots for each one. Its first pass ran for minutes, so no hold of the hot timeslots was ever
 * aged in a run, and both sides stopped at the slot's capacity.
 */
function ageHolds(ctx: BenchContext, fixture: LifecycleFixture) {
  return ctx.pool.query(
    `UPDATE bookings SET expires_at = now() + make_interval(secs => $2::float8 + random() * ($3::float8 - $2::float8))
      WHERE timeslot_id = ANY ($1::bigint[]) AND status = 'on_hold' AND expires_at > now() + interval '10 seconds'`,
    [fixture.hot.timeslots, HOLD_LIFE_SEC.min, HOLD_LIFE_SEC.max],
  );
}

function hotRequests(fixture: LifecycleFixture, time: string) {
  let n = 0;
  return () => {
    n += 1;
    const hold = n % 2 === 0;
    return {
      method: 'POST',
      path: '/api/v2/ota/partner/booking',
      headers: partnerHeaders(fixture),
      body: JSON.stringify({
        ActivityID: fixture.hot.activityId,
        Date: fixture.hot.date,
        Time: time,
        Participants: 1,
        ...(hold ? { Hold: { Minutes: 1 } } : {}),
        Customer: { ...CUSTOMER, LastName: `Hot ${n}` },
        PaymentReference: `PAY-HOT-${n}`,
      }),
    };
  };
}

async function measureHotHolds(
  ctx: BenchContext,
  fixture: LifecycleFixture,
  urls: { ours: string; ceiling: string },
  capacity: number,
): Promise<TransitionFigures> {
  const problems: string[] = [];
  const rows: Row[] = [];
  // The booking worker as production runs it, for its hold sweeper at the default interval; its outbox relay is off
  // (the lifecycle's events would otherwise be relayed to Redis during the run, which no other figure here pays for).
  // Its own queue prefix: nothing is queued there.
  const worker = startWorker(ctx, 'booking-worker-lifecycle', 'booking-worker', { QUEUE_PREFIX: 'bench-lifecycle', OUTBOX_RELAY_ENABLED: 'false' });
  const results: Record<'ours' | 'ceiling', { load: LoadResult; tally: HotTally }> = {} as never;
  try {
    for (const side of ['ours', 'ceiling'] as const) {
      const time = fixture.hot.time[side];
      const aging = startAgingHolds(ctx, fixture);
      let load: LoadResult;
      try {
        const next = hotRequests(fixture, time);
        load = await runLoad({
          url: urls[side],
          connections: ctx.connections,
          durationSec: ctx.durationSec,
          ...autocannonRequests(partnerHeaders(fixture), next),
        });
      } finally {
        await aging.stop();
      }
      ensureRunning(worker);
      ctx.log(`  ${side === 'ours' ? 'ours:   ' : 'ceiling:'} ${summarize(load)}`);
      // Every hold expires within 3 s of the run's end (those answered after the last pass of the ager are aged here);
      // the sweeper marks them within about its interval more.
      const deadline = Date.now() + 30_000;
      let tally = await tallyHot(ctx, fixture, time);
      while ((tally.liveHolds > 0 || tally.lapsedHolds > 0) && Date.now() < deadline) {
        await ageHolds(ctx, fixture);
        await new Promise((resolve) => setTimeout(resolve, 250));
        tally = await tallyHot(ctx, fixture, time);
      }
      results[side] = { load, tally };
    }
  } finally {
    await worker.stop();
  }

  const perSecond = (r: LoadResult) => (r.statusCounts[201] ?? 0) / r.durationSec;
  const { load, tally } = results.ours;
  const bare = results.ceiling;
  const answered = load.statusCounts[201] ?? 0;
  const onlyExpected = shareOf(load, (s) => s === 201 || s === 409) === 1 && load.errors === 0 && load.timeouts === 0;
  if (!onlyExpected) problems.push(`hot timeslot with expiring holds (ours): unexpected answers: ${describeStatuses(load)}, ${load.errors} socket errors`);
  rows.push({
    metric: `Hot timeslot, half of the requests holds expiring in ${HOLD_LIFE_SEC.min}-${HOLD_LIFE_SEC.max} s (capacity ${fmt.int(capacity)}): bookings/s (201s, holds included)`,
    ours: `${fmt.int(perSecond(load))} (${describeStatuses(load)})`,
    ceiling: `${fmt.int(perSecond(bare.load))} (${describeStatuses(bare.load)})`,
    ratio: fmt.pct(perSecond(load) / perSecond(bare.load)),
    target: `>= ${HOT_TARGET}/s`,
    pass: onlyExpected && perSecond(load) >= HOT_TARGET,
  });
  rows.push({
    metric: 'Hot timeslot with expiring holds: p50 / p99 ms at full load',
    ours: `${fmt.ms(load.p50)} / ${fmt.ms(load.p99)}`,
    ceiling: `${fmt.ms(bare.load.p50)} / ${fmt.ms(bare.load.p99)}`,
  });
  const describe = (t: HotTally) =>
    `booked ${fmt.int(t.booked)} = confirmed ${fmt.int(t.confirmed)} + live holds ${fmt.int(t.liveHolds)}; ${fmt.int(t.expired)} places of expired holds; ${fmt.int(t.bookings)} rows`;
  rows.push({
    metric: 'Hot timeslot with expiring holds, after the run and the sweeper: stored counter = live bookings (SQL)',
    ours: describe(tally),
    ceiling: describe(bare.tally),
    target: 'equal, no lapsed hold left, booked <= capacity',
    pass: tally.booked === tally.confirmed + tally.liveHolds && tally.lapsedHolds === 0 && tally.booked <= tally.capacity && tally.bookings >= answered,
  });
  // Every place taken is either still counted or came back when its hold expired; more 201s than the capacity means
  // places of expired holds were taken again.
  rows.push({
    metric: 'Hot timeslot with expiring holds: places taken again after their hold expired',
    ours: `${fmt.int(Math.max(0, answered - capacity))} (201s ${fmt.int(answered)} vs capacity ${fmt.int(capacity)})`,
    ceiling: `${fmt.int(Math.max(0, (bare.load.statusCounts[201] ?? 0) - capacity))}`,
  });
  return { rows, problems };
}

export async function lifecycleSection(ctx: BenchContext): Promise<Section> {
  // At the target rate, half of it confirmed bookings that stay: the run fits the slot only if places of expired holds
  // are taken again; without that, at most `hotCapacity` requests could be answered 201.
  const hotCapacity = Math.round((HOT_TARGET / 2) * ctx.durationSec + (HOT_TARGET / 2) * HOLD_LIFE_SEC.max);
  const fixture = await createLifecycleFixture(ctx, hotCapacity);
  const ours = await startServer(ctx, 'partner-api-lifecycle', 'apps/partner-api/dist/server.js', { NODE_OPTIONS: API_NODE_OPTIONS }, '/readyz');
  const ceiling = await startServer(ctx, 'partner-ceiling-lifecycle', ceilingBundle('partner-ceiling'), {
    ACCOUNT_ID: fixture.accountId,
    PARTNER_ID: fixture.partnerId,
    NODE_OPTIONS: API_NODE_OPTIONS,
  });
  const urls = { ours: ours.url, ceiling: ceiling.url };
  const roundSec = Math.max(2, Math.round(ctx.durationSec / 2));
  const rows: Row[] = [];
  const problems: string[] = [];
  try {
    for (const transition of ['confirm', 'cancel'] as const) {
      ctx.log(`lifecycle: ${transition}`);
      const figures = await measureTransition(ctx, fixture, transition, urls, roundSec);
      ensureRunning(ours.proc, ceiling.proc);
      rows.push(...figures.rows);
      problems.push(...figures.problems);
    }
    ctx.log('lifecycle: hot timeslot with holds expiring within seconds');
    const hot = await measureHotHolds(ctx, fixture, urls, hotCapacity);
    ensureRunning(ours.proc, ceiling.proc);
    rows.push(...hot.rows);
    problems.push(...hot.problems);
  } finally {
    await ours.proc.stop();
    await ceiling.proc.stop();
  }
  return {
    title: 'Partner booking lifecycle (issue 11)',
    rows,
    method: [
      `Confirm and cancel: each request takes a booking of its own (a hold to confirm, a confirmed booking to cancel), written with SQL before each run and spread round-robin over 1,440 timeslots (90 days of 16, capacity 1,000,000), so neither side queues on one timeslot row; a run never sends more requests than its stock, so no booking is confirmed or cancelled twice (that answer, "unchanged", is cheaper). Confirms send a complete customer and a payment reference; cancels a reason.`,
      'Ceiling: bench/ceilings/partner-ceiling.ts, whose confirm and cancel handlers call the same use cases (confirmBooking, cancelBooking: lock the booking, decide, write the change with its outbox event in one transaction) for the same partner, without an Idempotency-Key, in a bare Express 5 app (no key lookup, validation, logging or problem mapping).',
      `Throughput: autocannon, ${ctx.connections} connections, ${THROUGHPUT_ROUNDS} rounds alternating ours and the ceiling (which goes first changes every round), each ${roundSec} s measured after its own warm-up (${ctx.warmupSec} s in the first round, 1 s after), the round with the median ratio reported. Latency: open-loop at half the ceiling's median maximum rate over at most ${ctx.connections} connections (bench/lib/paced.ts), ${PACED_ROUNDS} rounds of ${PACED_WARMUP_SEC} s unmeasured then ${PACED_SEC} s measured, alternating, the round with the median p99 reported.`,
      `Hot timeslot: one timeslot per side, ${ctx.connections} connections for ${ctx.durationSec} s, every other request a hold (Hold.Minutes 1, the API's shortest) and the others bookings made at once. The API's holds last at least a minute, so the driver ages them: ten times a second, alongside the load, an UPDATE sets expires_at of every new hold of the hot timeslots to now() + ${HOLD_LIFE_SEC.min}-${HOLD_LIFE_SEC.max} s. The places of expired holds come back through the reservation itself (a refused reservation releases the timeslot's lapsed holds and tries again) and through apps/booking-worker's hold sweeper running at its default interval (outbox relay off).`,
      `The hot timeslot's capacity, ${fmt.int(hotCapacity)}, is what ${HOT_TARGET} bookings/s for ${ctx.durationSec} s needs when places of expired holds are taken again: half of them are confirmed bookings that stay, plus the holds alive at once; without reuse at most that many requests could get a 201, which is why 409s appear once the slot is full and why the bookings/s figure counts only 201s. Once the run has ended and every hold expired, SQL compares the stored counter with the participants of confirmed bookings and unexpired holds (none left), and checks booked <= capacity and at least one booking row per 201 (requests still in flight when the load stopped may add rows without a measured answer).`,
      ...(problems.length > 0
        ? [`Unexpected: ${problems.join('; ')}`]
        : ['Every measured confirm and cancel answered 200; the hot timeslot answered only 201 or 409.']),
    ],
  };
}
