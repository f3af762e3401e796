// `npm run bench`: the benchmarks of issues 2, 3, 10, 11, 12, 24, 25, 26 and 38 in one run (10, 11 and 24 partly over an
// account holding 1,000,000 bookings), each figure next to its ceiling, written to bench/RESULTS.md and printed. Bounded: every load
// runs for a fixed time or request count, every wait has a
// deadline, all traffic goes to 127.0.0.1, and every child process is stopped at the end or on Ctrl+C.
//
// Knobs (environment): BENCH_DURATION (s per run, 10), BENCH_WARMUP (s, 2), BENCH_CONNECTIONS (32),
// BENCH_WORKER_JOBS (100000), BENCH_MAIL_MESSAGES (3000), BENCH_MAIL_ROUNDS (5), BENCH_MAIL_REMINDERS (100000), BENCH_WORKER_CONCURRENCY (the worker's default WORKER_CONCURRENCY), BENCH_USAGE_ENTRIES (10000000), BENCH_LOG_LEVEL
// (info), BENCH_ONLY (comma list of partner, lifecycle, usage, worker, console, booking-page, million, webhooks, overhead, files, operator-day, octo, mail: a partial run, written to
// bench/.tmp/RESULTS.partial.md instead), CHROMIUM_PATH (the console's browser, /usr/bin/chromium),
// DATABASE_URL / REDIS_URL / BENCH_DATABASE_URL, PGOPTIONS (passed to every process, e.g. '-c jit=off') and
// BENCH_NODE_OPTIONS (NODE_OPTIONS of every process under test, e.g. '--max-old-space-size=128'), both recorded
// in the results; BENCH_PACED_DEBUG (any value: each paced run prints the driver's own event-loop delay and send lag,
// to tell a late load generator from a slow server).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPool } from '@backbone/db';
import { meteringWorkerEnv } from '@backbone/metering-worker/config';
import { API_NODE_OPTIONS } from '../scripts/dev-env.js';
import { buildEverything } from './lib/build.js';
import { lockBenchDatabase, releaseBenchQueuePrefixes, setUpInfrastructure } from './lib/infra.js';
import { createBenchAccount, resetBenchData, SUMMARY_ACCOUNT_ID } from './lib/fixtures.js';
import { installExitHandlers, killAll, peakMemory } from './lib/processes.js';
import { describeMachine, fmt, renderMarkdown, renderText, type Row, type Section } from './lib/report.js';
import type { BenchContext } from './lib/context.js';
import { ensureBookingsLoaded } from './load-bookings.js';
import { bookingPageSection } from './sections/booking-page.js';
import { consoleSection } from './sections/console.js';
import { filesSection } from './sections/files.js';
import { lifecycleSection } from './sections/lifecycle.js';
import { mailSection } from './sections/mail.js';
import { millionSection } from './sections/million.js';
import { octoSection } from './sections/octo.js';
import { operatorDaySection } from './sections/operator-day.js';
import { partnerSection } from './sections/partner.js';
import { usageSection } from './sections/usage.js';
import { webhooksSection } from './sections/webhooks.js';
import { overheadSection } from './sections/overhead.js';
import { workerSection } from './sections/worker.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const tmpDir = path.join(root, 'bench', '.tmp');
const env = process.env;
const num = (name: string, fallback: number) => {
  const value = Number(env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const only = env.BENCH_ONLY ? new Set(env.BENCH_ONLY.split(',').map((s) => s.trim())) : null;
const started = Date.now();
// Other work on the machine skews every figure; the load average before and after says whether there was any.
const loadBefore = os.loadavg()[0]!;
const log = (message: string) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${message}`);

/** The commit measured, marked when the work tree had uncommitted changes. */
function revision(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'apps', 'packages'], { cwd: root, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head} with uncommitted changes in apps/ or packages/` : head;
  } catch {
    return 'unknown (not a git work tree)';
  }
}

function memorySection(): Section {
  const peaks = peakMemory();
  const limits: Record<string, number> = {
    'partner-api': 200,
    'partner-api-lifecycle': 200,
    'partner-api-uploads': 200,
    'partner-api-octo': 200,
    'usage-api': 200,
    'operator-api': 200,
    'operator-api-day': 200,
    'metering-worker': 300,
  };
  const rows: Row[] = [...peaks.entries()]
    .sort(([a], [b]) => Number(b in limits) - Number(a in limits) || a.localeCompare(b))
    .map(([name, mib]) => {
      const limit = limits[name];
      return limit
        ? { metric: `${name}: peak RSS`, ours: fmt.mib(mib), target: `< ${limit} MiB`, pass: mib < limit }
        : { metric: `${name} (for comparison): peak RSS`, ours: fmt.mib(mib) };
    });
  return {
    title: 'Memory',
    rows,
    method: [
      'Peak resident set size of each process over its whole life in this run: the maximum of VmRSS sampled every 200 ms and the kernel high-water mark VmHWM from /proc/<pid>/status.',
      `Each app runs as in production: plain \`node\` on its esbuild bundle from \`npm run build\`, the APIs with NODE_OPTIONS \`${API_NODE_OPTIONS}\` (the ceilings are bundled and flagged the same way); the figure is that Node process.`,
    ],
  };
}

async function main(): Promise<void> {
  mkdirSync(tmpDir, { recursive: true });
  const infra = await setUpInfrastructure(env, tmpDir);
  const lock = await lockBenchDatabase(infra.databaseUrl);
  await releaseBenchQueuePrefixes(infra.redisUrl);
  const pool = createPool({ connectionString: infra.databaseUrl, max: 4, applicationName: 'bench-driver' });
  installExitHandlers(async () => {
    killAll('SIGTERM');
    await pool.end().catch(() => undefined);
    await lock.release().catch(() => undefined);
    await infra.stop();
  });
  const ctx: BenchContext = {
    root,
    tmpDir,
    databaseUrl: infra.databaseUrl,
    redisUrl: infra.redisUrl,
    pool,
    logLevel: env.BENCH_LOG_LEVEL ?? 'info',
    connections: num('BENCH_CONNECTIONS', 32),
    durationSec: num('BENCH_DURATION', 10),
    warmupSec: Number(env.BENCH_WARMUP ?? 2),
    workerJobs: num('BENCH_WORKER_JOBS', 100_000),
    workerConcurrency: num('BENCH_WORKER_CONCURRENCY', meteringWorkerEnv.properties.WORKER_CONCURRENCY.default),
    usageEntries: num('BENCH_USAGE_ENTRIES', 10_000_000),
    log,
  };
  log(`database ${new URL(infra.databaseUrl).pathname.slice(1)} on PostgreSQL ${infra.postgresVersion}, Redis ${infra.redisVersion}; logs in bench/.tmp/`);
  log('building the apps (npm run build) and the ceilings');
  await buildEverything(root, tmpDir);
  await resetBenchData(pool);
  // Autovacuum may be off (it is on this project's test machines): without this, dead rows of earlier runs (and
  // rollup row versions) would pile up and slow every later run.
  log('VACUUM (ANALYZE) of the bench database');
  await pool.query('VACUUM (ANALYZE)');
  await createBenchAccount(pool, 'bench summary account', 'UTC', SUMMARY_ACCOUNT_ID);
  // Loaded now, when no other account has a booking: the loader's references cannot collide with those the APIs of
  // the earlier sections draw at random (an API draws again on a collision; a 1,000,000-row load cannot). Over a
  // space of 32^8, 1,000,000 against the 200,000 a fast machine's partner section books collide one run in five.
  const millionLoad = !only || only.has('million') || only.has('operator-day') ? await ensureBookingsLoaded(pool, log) : undefined;

  const sections: Section[] = [];
  const failures: string[] = [];
  const plan: Array<[string, (c: BenchContext) => Promise<Section>]> = [
    ['partner', partnerSection],
    ['lifecycle', lifecycleSection],
    ['usage', usageSection],
    ['worker', workerSection],
    ['console', consoleSection],
    ['booking-page', bookingPageSection],
    ['million', (c) => millionSection(c, millionLoad)],
    ['webhooks', webhooksSection],
    ['overhead', overheadSection],
    ['files', filesSection],
    ['operator-day', (c) => operatorDaySection(c, millionLoad)],
    ['octo', octoSection],
    ['mail', mailSection],
  ];
  for (const [name, run] of plan) {
    if (only && !only.has(name)) continue;
    try {
      sections.push(await run(ctx));
    } catch (error) {
      // One broken app must not hide the other figures: record the failure and go on.
      const message = (error as Error).stack ?? String(error);
      log(`${name} section failed: ${message}`);
      failures.push(`${name}: ${(error as Error).message.split('\n')[0]}`);
      sections.push({
        title: `${name} (failed)`,
        rows: [{ metric: `${name} section`, ours: 'did not complete', pass: false }],
        method: [(error as Error).message],
      });
    }
  }
  sections.push(memorySection());

  const elapsed = (Date.now() - started) / 1000;
  const machine = describeMachine(infra.postgresVersion, infra.redisVersion);
  const preamble = [
    `Code measured: commit ${revision()}.${env.PGOPTIONS ? ` PGOPTIONS for every process: \`${env.PGOPTIONS}\`.` : ' PostgreSQL and Redis with their configuration as found (no tuning by the bench).'}${env.BENCH_NODE_OPTIONS ? ` NODE_OPTIONS of the processes under test: \`${env.BENCH_NODE_OPTIONS}\`.` : ''}`,
    `Load generator: autocannon 8 in the driver process, on the same ${machine.cpus} CPUs as the servers, PostgreSQL and Redis (all on 127.0.0.1), so absolute figures are lower than on separate machines; ours and the ceiling share the same conditions, one after the other.`,
    `Load average (1 min) before the run: ${loadBefore.toFixed(2)}, after: ${os.loadavg()[0]!.toFixed(2)} (the bench itself keeps about ${machine.cpus} busy; more means other work shared the machine).`,
    `Apps run as child processes, as in production: plain node on the bundles of \`npm run build\` (rebuilt at the start of every run; ceilings bundled alike); both APIs and their ceilings with NODE_OPTIONS \`${API_NODE_OPTIONS}\` (scripts/dev-env.ts, as npm start and docker-compose.yml run them), with LOG_LEVEL=${ctx.logLevel} (pino request logs written to bench/.tmp/*.log) and their default pool sizes and caches.`,
    ...(failures.length > 0 ? ['', `Sections that did not complete: ${failures.join('; ')}`] : []),
  ];
  console.log(renderText(sections));
  const markdown = renderMarkdown(machine, sections, preamble, elapsed);
  const target = only ? path.join(tmpDir, 'RESULTS.partial.md') : path.join(root, 'bench', 'RESULTS.md');
  writeFileSync(target, markdown);
  log(`wrote ${path.relative(root, target)} in ${Math.round(elapsed)} s`);
  await pool.end();
  await lock.release();
  await infra.stop();
  process.exitCode = failures.length > 0 ? 1 : 0;
}

main().catch((error: Error) => {
  console.error(`[bench] ${error.stack ?? error.message}`);
  killAll('SIGKILL');
  process.exit(1);
});
