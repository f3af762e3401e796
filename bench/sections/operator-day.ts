// The operator's day (issue 24) through the operator API with a signed-in session: reschedule and check-in next to a
// bare Express handler making the same use case calls, at full load and at a steady half-ceiling rate; the manifest of
// a day holding 2,000 bookings, the sales report over a year of the account holding 1,000,000 bookings, and the
// history of bookings with several changes, each timed one request at a time (and at full load for information).
import type { AutocannonRequest } from 'autocannon';
import { createOperatorUser } from '@backbone/use-cases';
import { ceilingBundle } from '../lib/build.js';
import { startServer, type BenchContext } from '../lib/context.js';
import { addDays, insertActivity, insertTimeslots } from '../lib/fixtures.js';
import {
  alternatingRounds,
  describeStatuses,
  medianBy,
  medianRound,
  runLoad,
  shareOf,
  summarize,
  THROUGHPUT_ROUNDS,
  throughputRounds,
  type LoadResult,
} from '../lib/load.js';
import { ensureRunning } from '../lib/processes.js';
import { fmt, type Row, type Section } from '../lib/report.js';
import { API_NODE_OPTIONS } from '../../scripts/dev-env.js';
import { ensureBookingsLoaded, MILLION_BOOKINGS, type MillionFixture } from '../load-bookings.js';
import { signIn } from './console.js';
import {
  createLifecycleFixture,
  drawReference,
  farSlot,
  measureStockedWrites,
  moveBody,
  stockBookings,
  type LifecycleFixture,
  type Stocked,
} from './lifecycle.js';

const PASSWORD = 'bench operator-day password';
const MANIFEST_BOOKINGS = 2_000;
const MANIFEST_ACTIVITIES = [
  'Kayak tour through the old harbour and the canals of the Speicherstadt',
  'Sunset cruise',
  'City walking tour',
  'Wine tasting',
  'Cooking class',
  'Bike tour along the river',
  'Harbour boat trip',
  'Ghost tour',
];
const MANIFEST_TIMES = ['08:00', '10:00', '12:00', '14:00', '16:00', '18:00'];
/** The slot dates of the sales report: 366 days (the most a report takes), from the million account's first slot date. */
const SALES_RANGE = { From: '2025-11-01', To: '2026-11-01' };
/** Bookings whose history is read: each created, moved away, moved back and checked in (four items). */
const HISTORY_BOOKINGS = 200;
/** Connections of the full-load figures of the reads (informational), as the usage summaries use. */
const READ_CONNECTIONS = 8;
/** The most seconds a one-request-at-a-time round of a read may take (it sends its case's `samples` requests). */
const SINGLE_CAP_SEC = 30;
const PROCESS = 'operator-api-day';

type Headers = Record<string, string>;

/** A signed-in session's headers: the cookie, and Sec-Fetch-Site as a browser sends it (state changes need the same origin). */
const sessionHeaders = (session: string): Headers => ({ cookie: `backbone_session=${session}`, 'sec-fetch-site': 'same-origin' });

async function createOwner(ctx: BenchContext, accountId: string, email: string): Promise<string> {
  return (await createOperatorUser({ pool: ctx.pool }, { accountId, email, role: 'owner', password: PASSWORD, actor: { kind: 'system' } })).user.id;
}

/**
 * A day of eight activities, six timeslots each, holding `MANIFEST_BOOKINGS` confirmed bookings of every channel (ota
 * through the fixture's partner), one to four participants, long and accented names, a fifth checked in; each activity
 * has two required questions (so the waiver check has work). After the fixture's 90 days: no stocked booking is on it.
 */
async function createManifestDay(ctx: BenchContext, fixture: LifecycleFixture): Promise<string> {
  const date = addDays(fixture.hot.date, 100);
  const slots: number[] = [];
  for (const name of MANIFEST_ACTIVITIES) {
    const activity = await insertActivity(ctx.pool, fixture.accountId, name);
    await insertTimeslots(ctx.pool, fixture.accountId, activity.id, date, 1, MANIFEST_TIMES, 160);
    for (const [position, question] of ['Full name of each participant', 'I accept the terms'].entries()) {
      await ctx.pool.query(
        `INSERT INTO waiver_questions (account_id, activity_id, position, question, type, required, options, per_participant)
         VALUES ($1, $2, $3, $4, $5, true, '[]'::jsonb, $6)`,
        [fixture.accountId, activity.id, position, question, position === 0 ? 'text' : 'checkbox', position === 0],
      );
    }
    const { rows } = await ctx.pool.query<{ id: string }>('SELECT id FROM timeslots WHERE activity_id = $1 ORDER BY local_time', [activity.id]);
    slots.push(...rows.map((r) => Number(r.id)));
  }
  const references = Array.from({ length: MANIFEST_BOOKINGS }, drawReference);
  await ctx.pool.query(
    `WITH made AS (
       INSERT INTO bookings (account_id, reference, activity_id, timeslot_id, channel, participants, customer, payment_reference, api_key_id, partner_id,
                             status, checked_in_at)
       SELECT $1, r.reference, t.activity_id, t.id, r.channel, 1 + r.n / 7 % 4,
              jsonb_build_object('FirstName', (ARRAY['Anna', 'Jean-Baptiste', 'Zoë', 'Maximilian-Alexander', 'Ayşe'])[1 + r.n % 5],
                                 'LastName', (ARRAY['Müller-Lüdenscheidt', 'Smith', 'Fernández de la Vega', 'Nguyen', 'Schäfer'])[1 + r.n / 5 % 5] || ' ' || r.n,
                                 'Email', 'guest.' || r.n || '@example.com', 'Phone', '+49 30 1234567'),
              'PAY-' || r.reference, CASE WHEN r.channel = 'ota' THEN $2::uuid END, CASE WHEN r.channel = 'ota' THEN $3::uuid END,
              'confirmed', CASE WHEN r.n % 5 = 0 THEN now() END
         FROM (SELECT reference, n::int AS n, (ARRAY['ota', 'ota', 'online', 'pos', 'ota'])[1 + n::int % 5] AS channel
                 FROM unnest($4::text[]) WITH ORDINALITY AS u(reference, n)) r
         JOIN timeslots t ON t.id = ($5::bigint[])[1 + r.n % cardinality($5::bigint[])]
       RETURNING timeslot_id, participants
     )
     UPDATE timeslots t SET booked = t.booked + m.n
       FROM (SELECT timeslot_id, sum(participants)::int AS n FROM made GROUP BY timeslot_id) m WHERE t.id = m.timeslot_id`,
    [fixture.accountId, fixture.apiKeyId, fixture.partnerId, references, slots],
  );
  // Answers as the partner API stores them, so the waivers check reads real ones: three bookings in four answer the
  // terms and every participant's full name (a long text); of those, every third leaves out its last participant's.
  await ctx.pool.query(
    `UPDATE bookings b
        SET answers = (SELECT jsonb_agg(a.answer) FROM (
              SELECT jsonb_build_object('QuestionID', q.id, 'Question', q.question, 'Type', q.type, 'Participant', p,
                                        'Value', 'Participant ' || p || ' of booking ' || b.reference || ', ' || (b.customer->>'FirstName') || ' ' || (b.customer->>'LastName')) AS answer
                FROM waiver_questions q CROSS JOIN generate_series(1, b.participants - CASE WHEN b.id % 12 = 1 THEN 1 ELSE 0 END) AS p
               WHERE q.activity_id = b.activity_id AND q.per_participant
              UNION ALL
              SELECT jsonb_build_object('QuestionID', q.id, 'Question', q.question, 'Type', q.type, 'Participant', NULL, 'Value', true)
                FROM waiver_questions q WHERE q.activity_id = b.activity_id AND NOT q.per_participant) a)
      WHERE b.timeslot_id = ANY($1::bigint[]) AND b.id % 4 <> 0`,
    [slots],
  );
  return date;
}

/** Stocked bookings given a history through ours: moved away, moved back, checked in. */
async function createHistories(ctx: BenchContext, fixture: LifecycleFixture, url: string, headers: Headers): Promise<string[]> {
  const stocked = await stockBookings(ctx, fixture, 'confirmed', HISTORY_BOOKINGS);
  const post = async (path: string, body?: string) => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body });
    if (response.status !== 200) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  };
  for (const booking of stocked) {
    const path = `/api/v2/operator/bookings/${booking.reference}`;
    await post(`${path}/reschedule`, moveBody(farSlot(fixture, booking)));
    await post(`${path}/reschedule`, moveBody(fixture.slots[booking.slot]!));
    await post(`${path}/check-in`);
  }
  return stocked.map((b) => b.reference);
}

function unexpected(result: LoadResult): string | null {
  if (result.requests === 0) return 'no responses';
  if (shareOf(result, (s) => s === 200) < 1 || result.errors > 0 || result.timeouts > 0)
    return `unexpected answers: ${describeStatuses(result)}, ${result.errors} socket errors, ${result.timeouts} timeouts`;
  return null;
}

interface ReadCase {
  name: string;
  /** The path of the next request (a read may rotate over several). */
  path: () => string;
  headers: Headers;
  /** Requests of each one-at-a-time round: enough for a p95, few enough for the slowest read to finish in the cap. */
  samples: number;
  targetMs: number;
  target: string;
}

/**
 * A read timed one request at a time (the target: what it takes, not how long it queues), in alternating rounds with
 * the ceiling, the round with the median p95 reported; before that, the same at full load for information.
 */
async function measureRead(ctx: BenchContext, urls: { ours: string; ceiling: string }, read: ReadCase): Promise<{ rows: Row[]; problems: string[] }> {
  const problems: string[] = [];
  const load = (url: string) => ({
    url,
    method: 'GET',
    headers: read.headers,
    setupRequest: (request: AutocannonRequest) => ({ ...request, method: 'GET', path: read.path() }),
  });
  const check = (side: string, result: LoadResult) => {
    const issue = unexpected(result);
    if (issue) problems.push(`${read.name} (${side}): ${issue}`);
    return issue === null;
  };
  ctx.log(`operator-day: ${read.name}, full load`);
  const roundSec = Math.max(2, Math.round(ctx.durationSec / 2));
  const full = await throughputRounds({ urls, connections: READ_CONNECTIONS, roundSec, warmupSec: ctx.warmupSec, load, log: ctx.log });
  ctx.log(`operator-day: ${read.name}, one request at a time`);
  const single = await alternatingRounds(
    async (url, round) => {
      if (round === 0) await runLoad({ ...load(url), connections: 1, durationSec: SINGLE_CAP_SEC, maxRequests: 3 });
      const result = await runLoad({ ...load(url), connections: 1, durationSec: SINGLE_CAP_SEC, maxRequests: read.samples });
      ctx.log(`  ${url === urls.ours ? 'ours:   ' : 'ceiling:'} ${summarize(result)}`);
      return result;
    },
    urls,
    THROUGHPUT_ROUNDS,
  );
  // The target is judged on the one-at-a-time rounds; a full-load round slower than its window (no answer within it)
  // is noted, not failed.
  full.ours.forEach((r) => check('ours, full load', r));
  const oursOk = single.ours.map((r) => check('ours', r)).every(Boolean);
  [...full.ceiling, ...single.ceiling].forEach((r) => check('ceiling', r));
  const [mine, bare] = [medianBy(single.ours, (r) => r.p95), medianBy(single.ceiling, (r) => r.p95)];
  const median = medianRound(full, (r) => r.rps);
  return {
    problems,
    rows: [
      {
        metric: `${read.name}: p50 / p95 ms, one request at a time, median of ${THROUGHPUT_ROUNDS} rounds of ${read.samples}`,
        ours: `${fmt.ms(mine.p50)} / ${fmt.ms(mine.p95)} (p95s ${single.ours.map((r) => fmt.ms(r.p95)).join(', ')})`,
        ceiling: `${fmt.ms(bare.p50)} / ${fmt.ms(bare.p95)} (p95s ${single.ceiling.map((r) => fmt.ms(r.p95)).join(', ')})`,
        target: read.target,
        pass: oursOk && mine.p95 < read.targetMs,
      },
      {
        metric: `${read.name}: req/s, p95 ms at full load (${READ_CONNECTIONS} connections)`,
        ours: `${fmt.int(median.ours.rps)}, ${fmt.ms(median.ours.p95)}`,
        ceiling: `${fmt.int(median.ceiling.rps)}, ${fmt.ms(median.ceiling.p95)}`,
        ratio: `${fmt.pct(median.ratio)} (rounds ${median.ratios.map(fmt.pct).join(', ')})`,
      },
    ],
  };
}

async function getJson<T>(url: string, headers: Headers): Promise<T> {
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** `preloaded`: the load run.ts made before the other sections (see there). */
export async function operatorDaySection(ctx: BenchContext, preloaded?: Awaited<ReturnType<typeof ensureBookingsLoaded>>): Promise<Section> {
  const million: MillionFixture = (preloaded ?? (await ensureBookingsLoaded(ctx.pool, ctx.log))).fixture;
  const fixture = await createLifecycleFixture(ctx, 1);
  const dayEmail = `owner-${fixture.accountId.slice(0, 8)}@example.com`;
  const userId = await createOwner(ctx, fixture.accountId, dayEmail);
  const salesEmail = `bench-day-sales-${million.accountId.slice(0, 8)}@example.com`;
  await createOwner(ctx, million.accountId, salesEmail);
  ctx.log(`operator-day: a day of ${fmt.int(MANIFEST_BOOKINGS)} bookings for the manifest`);
  const manifestDate = await createManifestDay(ctx, fixture);

  const ours = await startServer(ctx, PROCESS, 'apps/operator-api/dist/server.js', { NODE_OPTIONS: API_NODE_OPTIONS }, '/readyz');
  const ceiling = await startServer(ctx, 'operator-ceiling', ceilingBundle('operator-ceiling'), {
    ACCOUNT_ID: fixture.accountId,
    SALES_ACCOUNT_ID: million.accountId,
    USER_ID: userId,
    NODE_OPTIONS: API_NODE_OPTIONS,
  });
  const urls = { ours: ours.url, ceiling: ceiling.url };
  const roundSec = Math.max(2, Math.round(ctx.durationSec / 2));
  const rows: Row[] = [];
  const problems: string[] = [];
  let salesBookings = 0;
  try {
    const day = sessionHeaders(await signIn(ours.url, dayEmail, PASSWORD));
    const sales = sessionHeaders(await signIn(ours.url, salesEmail, PASSWORD));
    const bookingPath = (stocked: Stocked) => `/api/v2/operator/bookings/${stocked.reference}`;

    ctx.log('operator-day: reschedule');
    const reschedule = await measureStockedWrites(
      ctx,
      {
        name: 'POST bookings/{Reference}/reschedule',
        stock: (count) => stockBookings(ctx, fixture, 'confirmed', count),
        headers: { ...day, 'content-type': 'application/json' },
        request: (stocked) => ({ method: 'POST', path: `${bookingPath(stocked)}/reschedule`, body: moveBody(farSlot(fixture, stocked)) }),
      },
      urls,
      roundSec,
    );
    ensureRunning(ours.proc, ceiling.proc);
    ctx.log('operator-day: check-in');
    const checkIn = await measureStockedWrites(
      ctx,
      {
        name: 'POST bookings/{Reference}/check-in',
        stock: (count) => stockBookings(ctx, fixture, 'confirmed', count),
        headers: day,
        request: (stocked) => ({ method: 'POST', path: `${bookingPath(stocked)}/check-in` }),
      },
      urls,
      roundSec,
    );
    ensureRunning(ours.proc, ceiling.proc);
    rows.push(...reschedule.rows, ...checkIn.rows);
    problems.push(...reschedule.problems, ...checkIn.problems);

    // Autovacuum is off on the bench's database (see run.ts): without this, the planner would plan the reads for an
    // account with no bookings, not for the tens of thousands the runs above stocked, as production's autoanalyze would.
    await ctx.pool.query('ANALYZE bookings, timeslots, booking_history');
    // Right before it is read: the manifest must hold the whole day.
    const manifestPath = `/api/v2/operator/manifest?Date=${manifestDate}`;
    const manifest = await getJson<{ Totals: { Bookings: number }; Timeslots: { Bookings: { WaiversComplete: boolean }[] }[] }>(
      `${ours.url}${manifestPath}`,
      day,
    );
    if (manifest.Totals.Bookings !== MANIFEST_BOOKINGS) problems.push(`manifest: ${manifest.Totals.Bookings} bookings, ${MANIFEST_BOOKINGS} expected`);
    const complete = manifest.Timeslots.flatMap((slot) => slot.Bookings).filter((booking) => booking.WaiversComplete).length;
    const { rows: answered } = await ctx.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM bookings b JOIN timeslots t ON t.id = b.timeslot_id
        WHERE b.account_id = $1 AND t.local_date = $2 AND b.id % 4 <> 0 AND b.id % 12 <> 1`,
      [fixture.accountId, manifestDate],
    );
    if (complete !== answered[0]!.n) problems.push(`manifest: ${complete} bookings with complete waivers, ${answered[0]!.n} expected`);
    const manifestRead = await measureRead(ctx, urls, {
      name: `GET manifest?Date= (a day of ${fmt.int(manifest.Totals.Bookings)} bookings in ${MANIFEST_ACTIVITIES.length * MANIFEST_TIMES.length} timeslots)`,
      path: () => manifestPath,
      headers: day,
      samples: 100,
      targetMs: 50,
      target: 'p95 under 50 ms',
    });
    ensureRunning(ours.proc, ceiling.proc);

    const salesPath = `/api/v2/operator/reports/sales?From=${SALES_RANGE.From}&To=${SALES_RANGE.To}`;
    const [oursReport, bareReport] = await Promise.all([getJson(`${ours.url}${salesPath}`, sales), getJson(`${ceiling.url}${salesPath}`, {})]);
    if (JSON.stringify(oursReport) !== JSON.stringify(bareReport)) problems.push('sales report: ours and the ceiling answered different reports');
    const { rows: counted } = await ctx.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM bookings WHERE account_id = $1 AND local_date BETWEEN $2 AND $3',
      [million.accountId, SALES_RANGE.From, SALES_RANGE.To],
    );
    salesBookings = counted[0]!.n;
    // The report must count what the bookings hold: a report read from sums that are not there is fast and worthless.
    const { rows: sold } = await ctx.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM bookings WHERE account_id = $1 AND local_date BETWEEN $2 AND $3 AND status IN ('confirmed', 'cancelled') AND NOT test`,
      [million.accountId, SALES_RANGE.From, SALES_RANGE.To],
    );
    const reported = (oursReport as { Currencies: { Bookings: number; Cancelled: { Bookings: number } }[] }).Currencies.reduce(
      (n, currency) => n + currency.Bookings + currency.Cancelled.Bookings,
      0,
    );
    if (reported !== sold[0]!.n) problems.push(`sales report: counts ${reported} bookings of the range, the bookings hold ${sold[0]!.n}`);
    const salesRead = await measureRead(ctx, urls, {
      name: `GET reports/sales?From=${SALES_RANGE.From}&To=${SALES_RANGE.To} (${fmt.int(salesBookings)} bookings of the ${fmt.int(MILLION_BOOKINGS)}-booking account)`,
      path: () => salesPath,
      headers: sales,
      samples: 30,
      targetMs: 200,
      target: 'p95 under 200 ms',
    });
    ensureRunning(ours.proc, ceiling.proc);

    ctx.log(`operator-day: ${HISTORY_BOOKINGS} bookings given a history through the API`);
    const histories = await createHistories(ctx, fixture, ours.url, day);
    const items = await getJson<{ Items: unknown[] }>(`${ours.url}/api/v2/operator/bookings/${histories[0]}/history`, day);
    if (items.Items.length !== 4) problems.push(`history: ${items.Items.length} items, 4 expected`);
    let next = 0;
    const historyRead = await measureRead(ctx, urls, {
      name: `GET bookings/{Reference}/history (${HISTORY_BOOKINGS} bookings of ${items.Items.length} items each, in turn)`,
      path: () => `/api/v2/operator/bookings/${histories[next++ % histories.length]}/history`,
      headers: day,
      samples: 1_000,
      targetMs: 10,
      target: 'p95 under 10 ms',
    });
    ensureRunning(ours.proc, ceiling.proc);
    for (const read of [manifestRead, salesRead, historyRead]) {
      rows.push(...read.rows);
      problems.push(...read.problems);
    }
  } finally {
    await ours.proc.stop();
    await ceiling.proc.stop();
  }
  return {
    title: "Operator's day (issue 24)",
    rows,
    method: [
      `Ours: the operator API (its bundle under plain node, NODE_OPTIONS \`${API_NODE_OPTIONS}\`, its own process ${PROCESS}) with an owner's session: each account's owner made by the createOperatorUser use case and signed in once through POST /api/v2/operator/session; every request sends the session cookie and Sec-Fetch-Site: same-origin (the same-origin check of state changes), so each pays the session lookup, the role check, validation, logging and problem mapping.`,
      'Ceiling: bench/ceilings/operator-ceiling.ts, a bare Express 5 app whose handlers call the same use cases and repository functions as the routes (rescheduleOperatorBooking, checkInOperatorBooking, getManifest, getOperatorSalesReport, listOperatorBookingHistory) for the same account and user, without session, validation, logging or problem mapping; reschedule without an Idempotency-Key on both sides.',
      `Reschedule and check-in: each request takes a confirmed booking of its own (stocked with SQL before each run, spread round-robin over 1,440 timeslots of one activity, 90 days of 16, capacity 1,000,000), so nothing is "unchanged"; a reschedule moves its booking to the timeslot half the list away, so no two requests of a run queue on one timeslot row. Rounds as in the lifecycle section: ${ctx.connections} connections, ${THROUGHPUT_ROUNDS} alternating rounds of ${roundSec} s, the median ratio; then 5 rounds open-loop at half the ceiling's median maximum (bench/lib/paced.ts), the median p99.`,
      `Manifest: ${manifestDate}, ${fmt.int(MANIFEST_BOOKINGS)} confirmed bookings (ota through a partner, online and pos; 1-4 participants; a fifth checked in) over ${MANIFEST_ACTIVITIES.length} activities of ${MANIFEST_TIMES.length} timeslots, each activity with two required questions (the terms, asked once, and each participant's full name), three bookings in four answering them and a third of those leaving out the last participant's name, written with SQL; checked once to hold all of them, with waivers complete exactly where every answer is there. Before the reads, ANALYZE of bookings, timeslots and booking_history (autovacuum is off here), so their plans are made for the rows the writes above stocked.`,
      `Sales report: the account of bench/load-bookings.ts (${fmt.int(MILLION_BOOKINGS)} bookings over a year; its data untouched but for the booking worker's fold of its past days' sales sums into day rows, which the loader runs as the worker would; an owner added), From ${SALES_RANGE.From} To ${SALES_RANGE.To} (366 days, the most a report takes), which holds ${fmt.int(salesBookings)} of its bookings by slot date; ours and the ceiling checked once to answer the same report.`,
      `History: ${HISTORY_BOOKINGS} stocked bookings each moved away, moved back and checked in through ours (created, rescheduled twice, checked in: 4 items), read in turn.`,
      `Reads: the target is judged one request at a time (the time a read takes, not the time it queues, as for the usage summaries): ${THROUGHPUT_ROUNDS} rounds alternating ours and the ceiling, each a fixed number of requests (1,000 histories, 100 manifests, 30 sales reports; at most ${SINGLE_CAP_SEC} s) after 3 unmeasured in the first round, the round with the median p95 reported; before that, for information, ${READ_CONNECTIONS} connections for ${THROUGHPUT_ROUNDS} alternating rounds of ${roundSec} s, the round with the median ratio.`,
      'The console\'s JavaScript (at most 250 KB gzipped, issue 24) is measured in the "Operator console (issue 10)" section: the one row covers both issues.',
      ...(problems.length > 0 ? [`Unexpected: ${problems.join('; ')}`] : ['Every measured request answered 200.']),
    ],
  };
}
