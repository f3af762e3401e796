// Usage API: single POST against a one-INSERT-per-request ceiling, batch POST in entries/s, and summaries over
// the account holding 10,000,000 entries.
import type { AutocannonRequest } from 'autocannon';
import { ROLLUP_SHARDS } from '@backbone/db';
import { createBenchAccount, createKey, SUMMARY_ACCOUNT_ID } from '../lib/fixtures.js';
import {
  alternatingRounds,
  describeStatuses,
  medianBy,
  medianByP99,
  medianRound,
  PACED_ROUNDS,
  runLoad,
  THROUGHPUT_ROUNDS,
  throughputRounds,
  shareOf,
  summarize,
  type LoadResult,
} from '../lib/load.js';
import { pacedRequests, runPaced } from '../lib/paced.js';
import { fmt, type Row, type Section } from '../lib/report.js';
import { API_NODE_OPTIONS } from '../../scripts/dev-env.js';
import { ceilingBundle } from '../lib/build.js';
import { ensureRunning } from '../lib/processes.js';
import { startServer, startWorker, type BenchContext } from '../lib/context.js';
import { ensureUsageLoaded, SUMMARY_DATA } from '../load-usage.js';

const METERS = Array.from({ length: 10 }, (_, i) => `api-calls-${i + 1}`);
const BATCH_SIZE = 1_000;
const BATCH_CONNECTIONS = 8;
const SUMMARY_CONNECTIONS = 8;

function valid(result: LoadResult, expected: number): string | null {
  if (result.requests === 0) return 'no responses';
  if (shareOf(result, (s) => s === expected) < 0.99 || result.errors > 0)
    return `unexpected answers: ${describeStatuses(result)}, ${result.errors} socket errors`;
  return null;
}

function singlePost(url: string, key: string) {
  let n = 0;
  return {
    url,
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    setupRequest: (request: AutocannonRequest) => {
      n += 1;
      return {
        ...request,
        method: 'POST',
        path: '/api/v2/usage/meters',
        body: JSON.stringify({ Meter: METERS[n % METERS.length], Usage: 1 + (n % 100) / 100, ExtraInfo: `{"Request":${n}}` }),
      };
    },
  };
}

function batchBody(): string {
  const now = Math.floor(Date.now() / 1000);
  const Entries = Array.from({ length: BATCH_SIZE }, (_, i) => ({
    Meter: METERS[i % METERS.length],
    Usage: 1 + (i % 250) / 100,
    OccurredAt: now - 86_400 + Math.floor((i * 86_400) / BATCH_SIZE),
    ExtraInfo: `{"Line":${i}}`,
  }));
  return JSON.stringify({ Entries });
}

interface SummaryCase {
  name: string;
  from: string;
  to: string;
  tz?: string;
  target: boolean;
}

const SUMMARIES: SummaryCase[] = [
  { name: '31 days', from: '2025-10-01', to: '2025-10-31', target: true },
  { name: '365 days', from: '2024-11-01', to: '2025-10-31', target: true },
  { name: '31 days, tz=Asia/Kolkata (+05:30)', from: '2025-10-01', to: '2025-10-31', tz: 'Asia/Kolkata', target: false },
  { name: '365 days, tz=Asia/Kolkata (+05:30)', from: '2024-11-01', to: '2025-10-31', tz: 'Asia/Kolkata', target: false },
];

export async function usageSection(ctx: BenchContext): Promise<Section> {
  const load = await ensureUsageLoaded(ctx.pool, {
    accountId: SUMMARY_ACCOUNT_ID,
    total: ctx.usageEntries,
    meters: 20,
    ...SUMMARY_DATA,
    chunkSize: 500_000,
    log: (message) => ctx.log(`load-usage: ${message}`),
  });
  const accountId = await createBenchAccount(ctx.pool, 'bench usage writer', 'UTC');
  const writeKey = await createKey(ctx.pool, accountId, ['usage:write']);
  const readKey = await createKey(ctx.pool, SUMMARY_ACCOUNT_ID, ['usage:read']);
  const ceilingAccount = await createBenchAccount(ctx.pool, 'bench usage ceiling', 'UTC');

  const ours = await startServer(
    ctx,
    'usage-api',
    'apps/usage-api/dist/server.js',
    { QUEUE_PREFIX: 'bench-usage-api', NODE_OPTIONS: API_NODE_OPTIONS },
    '/readyz',
  );
  // The usage folder, where production runs it (the metering worker, on a queue prefix of its own that nothing
  // publishes to), for the whole section: the entries ours writes are folded into the rollups while it writes them,
  // and the summaries read rollups, not a backlog of unfolded entries.
  const folder = startWorker(ctx, 'metering-worker-folder', 'metering-worker', { QUEUE_PREFIX: 'bench-usage-folder', METRICS_ENABLED: 'false' });
  const ceiling = await startServer(ctx, 'usage-ceiling', ceilingBundle('usage-ceiling'), {
    ACCOUNT_ID: ceilingAccount,
    SUMMARY_ACCOUNT_ID,
    NODE_OPTIONS: API_NODE_OPTIONS,
  });
  const rows: Row[] = [];
  const problems: string[] = [];
  const note = (who: string, result: LoadResult, expected: number) => {
    const issue = valid(result, expected);
    if (issue) problems.push(`${who}: ${issue}`);
    return issue === null;
  };
  const roundSec = Math.max(2, Math.round(ctx.durationSec / 2));
  const urls = { ours: ours.url, ceiling: ceiling.url };
  try {
    ctx.log('usage: single POST');
    const singles = await throughputRounds({
      urls,
      connections: ctx.connections,
      roundSec,
      warmupSec: ctx.warmupSec,
      load: (url) => singlePost(url, writeKey),
      log: ctx.log,
    });
    ensureRunning(ours.proc, ceiling.proc, folder);
    const median = medianRound(singles, (r) => r.rps);
    const [mine, bare] = [median.ours, median.ceiling];
    const mineOk = singles.ours.every((r) => note('single POST (ours)', r, 201));
    singles.ceiling.forEach((r) => note('single POST (ceiling)', r, 201));
    rows.push({
      metric: `Single POST /usage/meters (${ctx.connections} connections): req/s`,
      ours: fmt.int(mine.rps),
      ceiling: fmt.int(bare.rps),
      ratio: `${fmt.pct(median.ratio)} (rounds ${median.ratios.map(fmt.pct).join(', ')})`,
      target: '>= 100% of ceiling',
      pass: mineOk && median.ratio >= 1,
    });
    rows.push({
      metric: 'Single POST: p50 / p99 ms at full load',
      ours: `${fmt.ms(mine.p50)} / ${fmt.ms(mine.p99)}`,
      ceiling: `${fmt.ms(bare.p50)} / ${fmt.ms(bare.p99)}`,
    });
    const ceilingMax = medianBy(singles.ceiling, (r) => r.rps).rps;
    const rate = Math.max(1, Math.round(ceilingMax / 2));
    const pacedSingle = (url: string) =>
      runPaced({ url, connections: ctx.connections, rate, durationSec: 8, warmupSec: 2, request: pacedRequests(singlePost(url, writeKey)) });
    const rounds = await alternatingRounds(pacedSingle, urls, PACED_ROUNDS);
    const pacedMine = medianByP99(rounds.ours);
    const pacedBare = medianByP99(rounds.ceiling);
    ctx.log(
      `  paced at ${rate}/s, p99 of each round: ours ${rounds.ours.map((r) => fmt.ms(r.p99)).join(', ')}; ceiling ${rounds.ceiling.map((r) => fmt.ms(r.p99)).join(', ')}`,
    );
    rows.push({
      metric: `Single POST: p50 / p99 ms at a steady ${fmt.int(rate)} req/s (half the ceiling's maximum), median of ${PACED_ROUNDS} rounds`,
      ours: `${fmt.ms(pacedMine.p50)} / ${fmt.ms(pacedMine.p99)} (p99s ${rounds.ours.map((r) => fmt.ms(r.p99)).join(', ')})`,
      ceiling: `${fmt.ms(pacedBare.p50)} / ${fmt.ms(pacedBare.p99)} (p99s ${rounds.ceiling.map((r) => fmt.ms(r.p99)).join(', ')})`,
      target: 'p99 < 25 ms',
      pass: rounds.ours.every((r) => note('single POST paced (ours)', r, 201)) && pacedMine.p99 < 25,
    });

    ctx.log('usage: batch POST');
    const body = batchBody();
    const batch = (url: string) => ({
      url,
      method: 'POST',
      headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
      setupRequest: (request: AutocannonRequest) => ({ ...request, method: 'POST', path: '/api/v2/usage/meters/batch', body }),
    });
    // Alternating rounds, as for the single POST: one window each swung by a fifth between runs on this machine.
    const walOf = new Map<LoadResult, number>();
    const batchRounds = await alternatingRounds(
      async (url, round) => {
        const { result, bytes } = await walBytesDuring(ctx, () =>
          runLoad({ ...batch(url), connections: BATCH_CONNECTIONS, durationSec: roundSec, warmupSec: round === 0 ? ctx.warmupSec : 1 }),
        );
        walOf.set(result, bytes);
        ctx.log(`  ${url === ours.url ? 'ours:   ' : 'ceiling:'} ${summarize(result)}`);
        return result;
      },
      urls,
      THROUGHPUT_ROUNDS,
    );
    ensureRunning(ours.proc, ceiling.proc, folder);
    const entries = (r: LoadResult) => ((r.statusCounts[201] ?? 0) * BATCH_SIZE) / r.durationSec;
    const batchMedian = medianRound(batchRounds, entries);
    const [batchMine, batchBare] = [batchMedian.ours, batchMedian.ceiling];
    const batchOk = batchRounds.ours.every((r) => note('batch POST (ours)', r, 201));
    batchRounds.ceiling.forEach((r) => note('batch POST (ceiling)', r, 201));
    rows.push({
      metric: `Batch POST /usage/meters/batch (${BATCH_SIZE} entries, ${BATCH_CONNECTIONS} connections): entries/s`,
      ours: fmt.int(entries(batchMine)),
      ceiling: fmt.int(entries(batchBare)),
      ratio: `${fmt.pct(batchMedian.ratio)} (rounds ${batchMedian.ratios.map(fmt.pct).join(', ')})`,
      target: '>= 50,000/s',
      pass: batchOk && entries(batchMine) >= 50_000,
    });
    rows.push({
      metric: 'Batch POST: entries/s as a share of the raw INSERT ceiling, same run (issue 27)',
      ours: fmt.pct(batchMedian.ratio),
      target: '>= 90% of ceiling',
      pass: batchOk && batchMedian.ratio >= 0.9,
    });
    // Whole-server WAL (pg_current_wal_lsn): writes of other databases on the same server count too.
    const walPerEntry = (r: LoadResult) => fmt.int((walOf.get(r) ?? 0) / Math.max(1, (r.statusCounts[201] ?? 0) * BATCH_SIZE));
    rows.push({
      metric: 'Batch POST: statements per batch; WAL bytes per stored entry (server-wide, during the run)',
      ours: `1; ${walPerEntry(batchMine)}`,
      ceiling: `1; ${walPerEntry(batchBare)}`,
    });
    rows.push({
      metric: 'Batch POST: p50 / p99 ms per request',
      ours: `${fmt.ms(batchMine.p50)} / ${fmt.ms(batchMine.p99)}`,
      ceiling: `${fmt.ms(batchBare.p50)} / ${fmt.ms(batchBare.p99)}`,
    });

    for (const summary of SUMMARIES) {
      ctx.log(`usage: summary ${summary.name}`);
      const path = `/api/v2/usage/meters?from=${summary.from}&to=${summary.to}${summary.tz ? `&tz=${encodeURIComponent(summary.tz)}` : ''}`;
      const get = (url: string) => ({
        url,
        headers: { authorization: `Bearer ${readKey}` },
        setupRequest: (r: AutocannonRequest) => ({ ...r, method: 'GET', path }),
      });
      const run = { connections: SUMMARY_CONNECTIONS, durationSec: Math.min(ctx.durationSec, 8), warmupSec: ctx.warmupSec };
      const s = await runLoad({ ...run, ...get(ours.url) });
      ctx.log(`  ours:    ${summarize(s)}`);
      const c = summary.tz ? null : await runLoad({ ...run, ...get(ceiling.url) });
      if (c) ctx.log(`  ceiling: ${summarize(c)}`);
      ensureRunning(ours.proc, ceiling.proc, folder);
      let sOk = note(`summary ${summary.name} (ours)`, s, 200);
      // A fast summary must also be right: same totals as the plain GROUP BY over the rollups (UTC days).
      if (!summary.tz) {
        const [a, b] = await Promise.all([totals(ours.url, path, readKey), totals(ceiling.url, path, readKey)]);
        const same = a.Events === b.Events && Math.abs(a.Usage - b.Usage) < 0.005;
        if (!same) problems.push(`summary ${summary.name}: ours says ${JSON.stringify(a)}, the rollups say ${JSON.stringify(b)}`);
        sOk &&= same;
      }
      rows.push({
        metric: `Summary ${summary.name}: req/s, p95 ms at full load (${SUMMARY_CONNECTIONS} connections)`,
        ours: `${fmt.int(s.rps)}, ${fmt.ms(s.p95)}`,
        ceiling: c ? `${fmt.int(c.rps)}, ${fmt.ms(c.p95)}` : '',
        ...(c ? { ratio: fmt.pct(s.rps / c.rps) } : {}),
      });
      // One request at a time: the time a summary takes, without queueing behind others.
      const single = { connections: 1, durationSec: Math.min(ctx.durationSec, 8), warmupSec: 0 };
      const p = await runLoad({ ...single, ...get(ours.url) });
      ctx.log(`  ours, one at a time:    ${summarize(p)}`);
      const pc = summary.tz ? null : await runLoad({ ...single, ...get(ceiling.url) });
      if (pc) ctx.log(`  ceiling, one at a time: ${summarize(pc)}`);
      sOk = note(`summary ${summary.name} one at a time (ours)`, p, 200) && sOk;
      rows.push({
        metric: `Summary ${summary.name} over ${fmt.int(ctx.usageEntries)} entries: p50 / p95 ms, one request at a time`,
        ours: `${fmt.ms(p.p50)} / ${fmt.ms(p.p95)}`,
        ceiling: pc ? `${fmt.ms(pc.p50)} / ${fmt.ms(pc.p95)}` : '',
        target: summary.target ? 'p95 < 25 ms' : 'p95 < 25 ms (bonus)',
        pass: sOk && p.p95 < 25,
      });
    }
    const naive = await naiveSummaryMs(ctx);
    rows.push({ metric: 'Reference: the same 365-day sums straight from usage_entries (no rollups), one query', ours: `${fmt.int(naive)} ms` });
  } finally {
    await ours.proc.stop();
    await ceiling.proc.stop();
    await folder.stop();
  }
  return {
    title: 'Usage API (issue 3)',
    rows,
    method: [
      `Single POST: autocannon, ${ctx.connections} connections, ${THROUGHPUT_ROUNDS} rounds alternating ours and the ceiling (which goes first changes every round), each ${roundSec} s measured (after ${ctx.warmupSec} s of warm-up in the first round, 1 s in the others), the round with the median ratio reported; bodies rotate over ${METERS.length} meters with an ExtraInfo, OccurredAt omitted (server time). Ours includes key lookup (cached), validation, the group-commit writer, and pino request logs at LOG_LEVEL=${ctx.logLevel}; the rollups are kept behind it by the usage folder of a metering worker started for the section (migration 1763850000000), whose CPU and PostgreSQL time count in every figure since it runs alongside.`,
      'Ceiling: bench/ceilings/usage-ceiling.ts, bare Express 5 doing one autocommit INSERT into usage_entries per request (synchronous_commit on, so one WAL flush each), no rollups, no auth, no validation, no logging, served by `app.listen` (ours by createHttpServer, as in the partner section).',
      `Batch: the same body of ${BATCH_SIZE} entries each request (no IdempotencyKey, so each request stores ${BATCH_SIZE} new entries), ${THROUGHPUT_ROUNDS} rounds of ${roundSec} s alternating ours and the ceiling, the round with the median ratio reported; the ceiling inserts them with one unnest INSERT, without rollups.`,
      "What the batch costs over the ceiling (issue 27; profiled with a CPU profile of the usage API and the CPU time of the PostgreSQL backends per batch): ours is one statement per batch that stores the entries only (json_to_recordset of a document holding each entry's own fields, 55 bytes an entry: sending and parsing 120 kB per batch had cost the API 2 ms), and the folder adds every entry of the last 200 ms to the hourly and daily rollups in one statement (about 2 µs an entry). Before the fold, each batch added to 250 hourly and 20 daily rollup rows itself, about 3 ms of backend CPU per batch; the rest of the gap is the API itself (auth, per-entry validation, the per-entry answer).",
      `Summaries: account ${SUMMARY_ACCOUNT_ID} holds ${fmt.int(ctx.usageEntries)} entries over 20 meters from 2024-10-01 to 2025-10-31, their rollup rows spread over the ${ROLLUP_SHARDS} shards as concurrent writers leave them (bench/load-usage.ts${load.loaded ? `, loaded this run in ${Math.round(load.seconds)} s` : ', loaded by an earlier run'}); ${Math.min(ctx.durationSec, 8)} s at full load over ${SUMMARY_CONNECTIONS} connections, then ${Math.min(ctx.durationSec, 8)} s one request at a time (the p95 target is judged there: the time a summary takes, not the time it queues). The ceiling sums whole UTC days from usage_rollups_daily with one GROUP BY and no middleware.`,
      `The single-POST p99 target is judged at a steady offered rate of half the ceiling maximum over 32 connections, ${PACED_ROUNDS} rounds of 2 s unmeasured then 8 s measured alternating ours and the ceiling, the round with the median p99 reported (open loop, bench/lib/paced.ts, latency counted from when each request was due); at full load a closed loop measures mostly queueing (latency is about connections / throughput).`,
      'Each UTC summary is also checked once against the ceiling: the same Totals.Events and Totals.Usage, or the row fails.',
      ...(problems.length > 0 ? [`Unexpected answers: ${problems.join('; ')}`] : ['Every measured request got the expected status.']),
    ],
  };
}

/** The run's result and the WAL the server wrote meanwhile. */
async function walBytesDuring<T>(ctx: BenchContext, run: () => Promise<T>): Promise<{ result: T; bytes: number }> {
  const lsn = async () => (await ctx.pool.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn;
  const before = await lsn();
  const result = await run();
  const { rows } = await ctx.pool.query<{ bytes: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::text AS bytes', [before]);
  return { result, bytes: Number(rows[0]!.bytes) };
}

async function totals(base: string, path: string, key: string): Promise<{ Usage: number; Events: number }> {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(30_000) });
  const body = (await response.json()) as { data: { Totals: { Usage: number; Events: number } } };
  return body.data.Totals;
}

/** One timed query summing 365 days from the raw entries, to show what the rollups save. */
async function naiveSummaryMs(ctx: BenchContext): Promise<number> {
  const started = process.hrtime.bigint();
  await ctx.pool.query(
    `SELECT meter, sum(usage), count(*) FROM usage_entries
      WHERE account_id = $1 AND occurred_at >= '2024-11-01T00:00:00Z' AND occurred_at <= '2025-10-31T23:59:59Z'
      GROUP BY meter ORDER BY 2 DESC, 1`,
    [SUMMARY_ACCOUNT_ID],
  );
  return Number(process.hrtime.bigint() - started) / 1e6;
}
