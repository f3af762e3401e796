// One account holding 1,000,000 bookings (bench/load-bookings.ts): the partner sync feed paged through to the end
// (issue 11), the operator's filtered bookings list, first page against last (issue 10), and the CSV export of about
// 100,000 rows with the operator API's resident memory sampled throughout. Every figure is measured one request at a
// time from the driver, next to the same repository query run straight on the driver's pool (the ceiling: what the
// database alone takes, without HTTP, auth, validation or JSON).
import { readFileSync } from 'node:fs';
import type { BookingFilters } from '@backbone/db';
import { createApiKey, listBookingChanges, listOperatorBookings, streamOperatorBookingsCsv, type Pool } from '@backbone/db';
import { ensureBookingsLoaded, MILLION_BOOKINGS, type MillionFixture } from '../load-bookings.js';
import { percentile } from '../lib/load.js';
import { fmt, type Row, type Section } from '../lib/report.js';
import { API_NODE_OPTIONS } from '../../scripts/dev-env.js';
import { ensureRunning, type ManagedProcess } from '../lib/processes.js';
import { startServer, type BenchContext } from '../lib/context.js';

const SYNC_LIMIT = 500;
const LIST_LIMIT = 50;
/** Timed repetitions of each first and last page, alternating, after one untimed pair. */
const REPEATS = 15;
/** Before every booking of the fixture: a full sync pass from the beginning. */
const SYNC_SINCE = '2025-01-01T00:00:00Z';
/** Local dates of the timeslots whose bookings the CSV export takes: about a tenth of the account. */
const EXPORT_RANGE = { From: '2026-03-01', To: '2026-04-05' };
const RSS_LIMIT_MIB = 200;

interface Timed<T> {
  ms: number;
  status: number;
  body: T;
}

async function timedGet<T>(url: string, key: string): Promise<Timed<T>> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const text = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${text.slice(0, 300)}`);
  return { ms, status: response.status, body: JSON.parse(text) as T };
}

async function timedQuery(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const p95 = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    95,
  );

/** `first` and `last` measured alternately REPEATS times after one untimed pair (cold caches would flatter neither). */
async function alternate(first: () => Promise<number>, last: () => Promise<number>): Promise<{ first: number[]; last: number[] }> {
  await first();
  await last();
  const result = { first: [] as number[], last: [] as number[] };
  for (let i = 0; i < REPEATS; i++) {
    result.first.push(await first());
    result.last.push(await last());
  }
  return result;
}

interface SyncPage {
  Bookings: Array<{ Reference: string }>;
  Next: string | null;
}

async function syncFigures(ctx: BenchContext, fixture: MillionFixture, base: string, key: string): Promise<{ rows: Row[]; problems: string[] }> {
  const partner = fixture.partners[0]!;
  const problems: string[] = [];
  const { rows: expected } = await ctx.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM bookings WHERE account_id = $1 AND partner_id = $2 AND updated_at >= $3',
    [fixture.accountId, partner.id, SYNC_SINCE],
  );
  const firstPath = `/api/v2/ota/partner/bookings?UpdatedSince=${encodeURIComponent(SYNC_SINCE)}&Limit=${SYNC_LIMIT}`;
  const pathAfter = (cursor: string) => `/api/v2/ota/partner/bookings?Cursor=${cursor}&Limit=${SYNC_LIMIT}`;

  ctx.log(`million: sync pass over ${partner.name}'s ${fmt.int(expected[0]!.n)} bookings, ${SYNC_LIMIT} a page`);
  const times: number[] = [];
  const seen = new Set<string>();
  let served = 0;
  let path = firstPath;
  // The path of the last page that came back full: the deepest page a client pays the whole Limit for.
  let lastFullPath = firstPath;
  const passStarted = performance.now();
  for (;;) {
    const page = await timedGet<SyncPage>(`${base}${path}`, key);
    times.push(page.ms);
    served += page.body.Bookings.length;
    for (const booking of page.body.Bookings) seen.add(booking.Reference);
    if (page.body.Bookings.length === SYNC_LIMIT) lastFullPath = path;
    if (page.body.Next === null) break;
    path = pathAfter(page.body.Next);
  }
  const passSec = (performance.now() - passStarted) / 1000;
  ctx.log(
    `  ${times.length} pages in ${passSec.toFixed(1)} s: p50 ${fmt.ms(median(times))}, p95 ${fmt.ms(p95(times))} ms, max ${fmt.ms(Math.max(...times))} ms`,
  );
  const complete = served === expected[0]!.n && seen.size === served;
  if (!complete) problems.push(`sync pass: ${served} bookings served, ${seen.size} distinct, ${expected[0]!.n} expected`);

  const pages = await alternate(
    async () => (await timedGet(`${base}${firstPath}`, key)).ms,
    async () => (await timedGet(`${base}${lastFullPath}`, key)).ms,
  );
  // The ceiling: the repository's query for the same two pages, straight on the pool.
  const lastCursor = lastFullPath === firstPath ? null : decodeSyncCursor(new URL(lastFullPath, base).searchParams.get('Cursor')!);
  const owner = { accountId: fixture.accountId, partnerId: partner.id };
  const since = new Date(SYNC_SINCE);
  const bare = await alternate(
    () => timedQuery(() => listBookingChanges(ctx.pool, owner, { since, cursor: null, limit: SYNC_LIMIT })),
    () => timedQuery(() => listBookingChanges(ctx.pool, owner, { since, cursor: lastCursor, limit: SYNC_LIMIT })),
  );
  const ratio = median(pages.last) / median(pages.first);
  const allTimes = [...times, ...pages.first, ...pages.last];
  return {
    problems,
    rows: [
      {
        metric: `Sync pass: every page of ${SYNC_LIMIT} of the partner's ${fmt.int(expected[0]!.n)} bookings (${times.length} pages), p50 / p95 ms one request at a time`,
        ours: `${fmt.ms(median(allTimes))} / ${fmt.ms(p95(allTimes))}`,
        target: 'p95 < 30 ms; every booking once',
        pass: complete && p95(allTimes) < 30,
      },
      {
        metric: `Sync: first page / last full page, median of ${REPEATS} ms`,
        ours: `${fmt.ms(median(pages.first))} / ${fmt.ms(median(pages.last))}`,
        ceiling: `${fmt.ms(median(bare.first))} / ${fmt.ms(median(bare.last))}`,
        ratio: `last/first ${ratio.toFixed(2)}x`,
        target: 'last <= 1.5x first',
        pass: ratio <= 1.5,
      },
    ],
  };
}

/** The sync cursor's position, as the use case encodes it (a JSON array in base64url): for the ceiling's query only. */
function decodeSyncCursor(cursor: string): { xid: string; id: number } {
  const [, xid, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string, number];
  return { xid, id };
}

interface ListPage {
  Bookings: Array<{ Reference: string }>;
  Next: string | null;
}

/** The operator list's cursor for "ids below `id`", as apps/operator-api/src/cursor.ts encodes it. */
const listCursor = (id: number) => Buffer.from(`k${id}`).toString('base64url');

interface ListCase {
  name: string;
  filters: BookingFilters;
}

function listCases(fixture: MillionFixture, sample: { reference: string; email: string }): ListCase[] {
  const activity = fixture.activities[3]!;
  return [
    { name: 'Q=a reference', filters: { Q: sample.reference } },
    { name: 'Q=an e-mail address', filters: { Q: sample.email } },
    { name: 'no filter', filters: {} },
    { name: 'Channel=ota', filters: { Channel: 'ota' } },
    { name: 'Status=cancelled', filters: { Status: 'cancelled' } },
    { name: `ActivityID (${activity.name})`, filters: { ActivityID: activity.activityId } },
    { name: 'From/To one month', filters: { From: '2026-06-01', To: '2026-06-30' } },
    { name: 'Channel=pos, Status=confirmed, From/To a quarter', filters: { Channel: 'pos', Status: 'confirmed', From: '2026-04-01', To: '2026-06-30' } },
    { name: 'Q=schmidt (a last name)', filters: { Q: 'schmidt' } },
    { name: 'Q=gmail.com (an e-mail domain)', filters: { Q: 'gmail.com' } },
    { name: 'Q=GYG, Channel=ota, Status=confirmed, one activity', filters: { Q: 'GYG', Channel: 'ota', Status: 'confirmed', ActivityID: activity.activityId } },
    { name: 'Q=martin, From/To a quarter', filters: { Q: 'martin', From: '2026-07-01', To: '2026-09-30' } },
  ];
}

function listPath(filters: BookingFilters, below: number | null, limit = LIST_LIMIT): string {
  const query = new URLSearchParams(Object.entries(filters).map(([k, v]): [string, string] => [k, String(v)]));
  query.set('Limit', String(limit));
  if (below !== null) query.set('Cursor', listCursor(below));
  return `/api/v2/operator/bookings?${query.toString()}`;
}

/**
 * The cursor of the list's last full page: the smallest id X such that LIST_LIMIT matching bookings have ids below X,
 * found by bisection over the API's own answers (untimed), since paging to the end would take up to 20,000 requests.
 * Null when everything fits on the first page.
 */
async function lastPageBelow(pool: Pool, base: string, key: string, filters: BookingFilters): Promise<number | null> {
  const { rows } = await pool.query<{ max: number }>('SELECT max(id)::int AS max FROM bookings');
  let [low, high] = [1, rows[0]!.max + 1];
  const full = async (below: number) => (await timedGet<ListPage>(`${base}${listPath(filters, below)}`, key)).body.Bookings.length === LIST_LIMIT;
  if (!(await full(high))) return null;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (await full(middle)) high = middle;
    else low = middle + 1;
  }
  return high;
}

async function listFigures(ctx: BenchContext, fixture: MillionFixture, base: string, key: string): Promise<{ rows: Row[]; problems: string[] }> {
  const rows: Row[] = [];
  const problems: string[] = [];
  const all: number[] = [];
  let worstRatio = 0;
  const { rows: sampled } = await ctx.pool.query<{ reference: string; email: string }>(
    `SELECT reference, customer->>'Email' AS email FROM bookings WHERE account_id = $1 ORDER BY id OFFSET $2 LIMIT 1`,
    [fixture.accountId, MILLION_BOOKINGS / 2],
  );
  const cases = listCases(fixture, sampled[0]!);
  for (const c of cases) {
    const below = await lastPageBelow(ctx.pool, base, key, c.filters);
    const lastPage = below === null ? null : await timedGet<ListPage>(`${base}${listPath(c.filters, below)}`, key);
    // The last full page must be the end: its answer says no page follows.
    if (lastPage && lastPage.body.Next !== null) problems.push(`${c.name}: the page found as the last one has a Next`);
    const pages = await alternate(
      async () => (await timedGet(`${base}${listPath(c.filters, null)}`, key)).ms,
      async () => (await timedGet(`${base}${listPath(c.filters, below)}`, key)).ms,
    );
    const bare = await alternate(
      () => timedQuery(() => listOperatorBookings(ctx.pool, fixture.accountId, c.filters, { limit: LIST_LIMIT, below: null })),
      () => timedQuery(() => listOperatorBookings(ctx.pool, fixture.accountId, c.filters, { limit: LIST_LIMIT, below: below === null ? null : String(below) })),
    );
    all.push(...pages.first, ...(below === null ? [] : pages.last));
    const ratio = below === null ? null : median(pages.last) / median(pages.first);
    if (ratio !== null) worstRatio = Math.max(worstRatio, ratio);
    ctx.log(
      `  list ${c.name}: first ${fmt.ms(median(pages.first))} ms, last ${below === null ? '(one page)' : `${fmt.ms(median(pages.last))} ms`}; database alone ${fmt.ms(median(bare.first))} / ${fmt.ms(median(bare.last))} ms`,
    );
    rows.push({
      metric: `List, ${c.name}: first / last page, median ms`,
      ours: below === null ? `${fmt.ms(median(pages.first))} (one page)` : `${fmt.ms(median(pages.first))} / ${fmt.ms(median(pages.last))}`,
      ceiling: below === null ? fmt.ms(median(bare.first)) : `${fmt.ms(median(bare.first))} / ${fmt.ms(median(bare.last))}`,
      ...(ratio === null ? {} : { ratio: `last/first ${ratio.toFixed(2)}x`, target: 'last <= 1.5x first', pass: ratio <= 1.5 }),
    });
  }
  rows.unshift({
    metric: `List of ${LIST_LIMIT} rows, ${cases.length} filter combinations, first and last pages: p50 / p95 ms one request at a time (${all.length} requests)`,
    ours: `${fmt.ms(median(all))} / ${fmt.ms(p95(all))}`,
    target: 'p95 < 30 ms',
    pass: p95(all) < 30,
  });
  ctx.log(`  list: p95 ${fmt.ms(p95(all))} ms over ${all.length} requests, worst last/first ${worstRatio.toFixed(2)}x`);
  return { rows, problems };
}

function rssMiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

/** Streams the export, counting its lines as they arrive, with the API's VmRSS sampled every 50 ms meanwhile. */
async function timedExport(url: string, key: string, proc: ManagedProcess): Promise<{ seconds: number; rows: number; peakRssMiB: number }> {
  let peak = rssMiB(proc.pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(proc.pid))), 50);
  try {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    if (response.status !== 200 || !response.body) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
    let lines = 0;
    for await (const chunk of response.body) {
      const bytes = chunk as Uint8Array;
      for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    return { seconds, rows: lines - 1, peakRssMiB: Math.max(peak, rssMiB(proc.pid)) };
  } finally {
    clearInterval(sampler);
  }
}

async function exportFigures(
  ctx: BenchContext,
  fixture: MillionFixture,
  base: string,
  key: string,
  proc: ManagedProcess,
): Promise<{ rows: Row[]; problems: string[] }> {
  const problems: string[] = [];
  const { rows: counted } = await ctx.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM bookings b JOIN timeslots t ON t.id = b.timeslot_id WHERE b.account_id = $1 AND t.local_date BETWEEN $2 AND $3',
    [fixture.accountId, EXPORT_RANGE.From, EXPORT_RANGE.To],
  );
  const expected = counted[0]!.n;
  const url = `${base}/api/v2/operator/bookings.csv?From=${EXPORT_RANGE.From}&To=${EXPORT_RANGE.To}`;
  ctx.log(`million: CSV export of ${fmt.int(expected)} bookings, 3 times`);
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const run = await timedExport(url, key, proc);
    ctx.log(`  ${fmt.int(run.rows)} rows in ${run.seconds.toFixed(2)} s: ${fmt.int(run.rows / run.seconds)} rows/s, VmRSS peak ${fmt.mib(run.peakRssMiB)}`);
    if (run.rows !== expected) problems.push(`CSV export: ${run.rows} rows, ${expected} bookings match the filter`);
    runs.push(run);
  }
  ctx.log(`million: CSV export of all ${fmt.int(MILLION_BOOKINGS)} bookings, once`);
  const whole = await timedExport(`${base}/api/v2/operator/bookings.csv`, key, proc);
  ctx.log(
    `  ${fmt.int(whole.rows)} rows in ${whole.seconds.toFixed(2)} s: ${fmt.int(whole.rows / whole.seconds)} rows/s, VmRSS peak ${fmt.mib(whole.peakRssMiB)}`,
  );
  if (whole.rows !== MILLION_BOOKINGS) problems.push(`CSV export of everything: ${whole.rows} rows`);
  ensureRunning(proc);

  // The ceiling: the export's own batches of CSV lines (streamOperatorBookingsCsv) for the same filter read straight
  // from the pool, without HTTP.
  const bareStarted = performance.now();
  let bareRows = 0;
  for await (const batch of streamOperatorBookingsCsv(ctx.pool, fixture.accountId, EXPORT_RANGE)) {
    for (let at = batch.indexOf('\r\n'); at !== -1; at = batch.indexOf('\r\n', at + 2)) bareRows++;
  }
  const bareRate = bareRows / ((performance.now() - bareStarted) / 1000);

  const rate = median(runs.map((r) => r.rows / r.seconds));
  const peak = Math.max(...runs.map((r) => r.peakRssMiB), whole.peakRssMiB, proc.peakRssMiB());
  const rowsRight = runs.every((r) => r.rows === expected);
  return {
    problems,
    rows: [
      {
        metric: `CSV export of ${fmt.int(expected)} bookings (From=${EXPORT_RANGE.From}, To=${EXPORT_RANGE.To}): rows/s, median of 3`,
        ours: `${fmt.int(rate)} (${runs.map((r) => fmt.int(r.rows / r.seconds)).join(', ')})`,
        ceiling: fmt.int(bareRate),
        ratio: fmt.pct(rate / bareRate),
        target: '>= 50,000 rows/s; row count = bookings matched',
        pass: rowsRight && rate >= 50_000,
      },
      {
        metric: `CSV export of all ${fmt.int(MILLION_BOOKINGS)} bookings: rows/s`,
        ours: `${fmt.int(whole.rows / whole.seconds)} (${fmt.int(whole.rows)} rows in ${whole.seconds.toFixed(1)} s)`,
      },
      {
        metric: 'operator-api: peak RSS over its whole life (every list request and export above)',
        ours: fmt.mib(peak),
        target: `< ${RSS_LIMIT_MIB} MiB`,
        pass: peak < RSS_LIMIT_MIB,
      },
    ],
  };
}

/** `preloaded`: the load run.ts made before the other sections (see there). */
export async function millionSection(ctx: BenchContext, preloaded?: Awaited<ReturnType<typeof ensureBookingsLoaded>>): Promise<Section> {
  const load = preloaded ?? (await ensureBookingsLoaded(ctx.pool, ctx.log));
  const { fixture } = load;
  // Keys are per run (their secrets are not stored): drop the last run's, then make this run's.
  await ctx.pool.query(`DELETE FROM api_keys WHERE account_id = $1 AND name LIKE 'bench run %'`, [fixture.accountId]);
  const partner = fixture.partners[0]!;
  const otaKey = (await createApiKey(ctx.pool, fixture.accountId, { name: 'bench run sync', scopes: ['ota'], partnerId: partner.id })).secret;
  const adminKey = (await createApiKey(ctx.pool, fixture.accountId, { name: 'bench run operator', scopes: ['admin'] })).secret;

  const partnerApi = await startServer(ctx, 'partner-api-sync', 'apps/partner-api/dist/server.js', { NODE_OPTIONS: API_NODE_OPTIONS }, '/readyz');
  const operatorApi = await startServer(ctx, 'operator-api', 'apps/operator-api/dist/server.js', { NODE_OPTIONS: API_NODE_OPTIONS }, '/readyz');
  const rows: Row[] = [];
  const problems: string[] = [];
  try {
    const sync = await syncFigures(ctx, fixture, partnerApi.url, otaKey);
    ensureRunning(partnerApi.proc);
    ctx.log('million: operator bookings list, first and last pages');
    const list = await listFigures(ctx, fixture, operatorApi.url, adminKey);
    ensureRunning(operatorApi.proc);
    const csv = await exportFigures(ctx, fixture, operatorApi.url, adminKey, operatorApi.proc);
    rows.push(...sync.rows, ...list.rows, ...csv.rows);
    problems.push(...sync.problems, ...list.problems, ...csv.problems);
  } finally {
    await partnerApi.proc.stop();
    await operatorApi.proc.stop();
  }
  const counts = await ctx.pool.query<{ channel: string; n: number }>(
    'SELECT channel, count(*)::int AS n FROM bookings WHERE account_id = $1 GROUP BY channel ORDER BY channel',
    [fixture.accountId],
  );
  return {
    title: 'One account with 1,000,000 bookings: partner sync (issue 11), operator list and CSV export (issue 10)',
    rows,
    method: [
      `Data: account ${fixture.accountId} in ${fixture.timeZone} holds ${fmt.int(MILLION_BOOKINGS)} bookings (${counts.rows.map((r) => `${r.channel} ${fmt.int(r.n)}`).join(', ')}; ota through ${fixture.partners.map((p) => p.name).join(', ')}; confirmed, cancelled and expired holds) made over a year on ${fixture.activities.length} activities, 6 timeslots a day, each timeslot's counter equal to its confirmed participants; in the same tables as every other account of the bench (bench/load-bookings.ts${load.loaded ? `, loaded this run in ${Math.round(load.seconds)} s` : ', loaded by an earlier run'}).`,
      `Sync: the partner API (its own process, bundle and NODE_OPTIONS as in production) with ${partner.name}'s ota key, UpdatedSince=${SYNC_SINCE}, Limit=${SYNC_LIMIT}, Next followed to the end one request at a time; every booking must come exactly once. Then the first page and the last full page, ${REPEATS} times each, alternating.`,
      `List: the operator API with an admin-scoped key, Limit=${LIST_LIMIT}. For each filter combination the first page and the last full page (its cursor found by bisection over the API's own answers, untimed), ${REPEATS} times each, alternating; the p95 counts every timed first and last page.`,
      `CSV: GET /api/v2/operator/bookings.csv read as a stream by the driver, rows counted by line ends and compared with a COUNT of the bookings the filter selects; rows/s from the request to the last byte. The operator API's VmRSS is sampled every 50 ms during each export; the peak reported is the larger of those samples and the kernel's VmHWM, which covers the process's whole life.`,
      "Ceiling: the repository function each route calls (listBookingChanges, listOperatorBookings, streamOperatorBookingsCsv), run on the driver's own pool: what PostgreSQL and the row mapping take (for the CSV, PostgreSQL writing its lines), without HTTP, auth, validation or JSON.",
      ...(problems.length > 0
        ? [`Unexpected: ${problems.join('; ')}`]
        : ['Every sync booking came exactly once, every last page was the end of its list, and every export had exactly the rows its filter selects.']),
    ],
  };
}
