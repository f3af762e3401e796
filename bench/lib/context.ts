// What every section of the bench shares: where things are, the load settings, and how an app is started.
import type { Pool } from '@backbone/db';
import { freePort } from '@backbone/testkit/local-services';
import { startProcess, waitForHttp, type ManagedProcess } from './processes.js';
import { BENCH_RATE_LIMITS } from './rate-limits.js';

export interface BenchContext {
  root: string;
  tmpDir: string;
  databaseUrl: string;
  redisUrl: string;
  pool: Pool;
  /** LOG_LEVEL of the apps under test (their logs go to bench/.tmp/<name>.log). */
  logLevel: string;
  connections: number;
  durationSec: number;
  warmupSec: number;
  workerJobs: number;
  workerConcurrency: number;
  usageEntries: number;
  log: (message: string) => void;
}

export interface StartedServer {
  proc: ManagedProcess;
  url: string;
}

/**
 * Starts `entry` on a free port and waits until `readyPath` answers 200. An API runs with its rate limits on, with
 * budgets no bench rate reaches (`env` may switch them off).
 */
export async function startServer(ctx: BenchContext, name: string, entry: string, env: Record<string, string>, readyPath = '/healthz'): Promise<StartedServer> {
  const port = await freePort();
  const proc = startProcess({
    name,
    entry,
    cwd: ctx.root,
    logDir: ctx.tmpDir,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: ctx.databaseUrl,
      REDIS_URL: ctx.redisUrl,
      // The APIs' queues bind their prefix to the bench database (packages/publisher queue-owner.ts): not 'bull', which
      // another database's processes on this Redis may hold. A section that queues names its own.
      QUEUE_PREFIX: 'bench',
      LOG_LEVEL: ctx.logLevel,
      ...BENCH_RATE_LIMITS,
      ...env,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(proc, `${url}${readyPath}`);
  } catch (error) {
    await proc.stop();
    throw error;
  }
  ctx.log(`${name} ready at ${url} (pid ${proc.pid})`);
  return { proc, url };
}

/**
 * A worker app as production runs it (its bundle under plain node) on the bench database and Redis, with its own
 * queue prefix and whatever else `env` sets. Not waited for: each section knows what "up" means for its worker.
 */
export function startWorker(ctx: BenchContext, name: string, app: string, env: Record<string, string> & { QUEUE_PREFIX: string }): ManagedProcess {
  return startProcess({
    name,
    entry: `apps/${app}/dist/main.js`,
    cwd: ctx.root,
    logDir: ctx.tmpDir,
    env: { DATABASE_URL: ctx.databaseUrl, REDIS_URL: ctx.redisUrl, LOG_LEVEL: ctx.logLevel, ...env },
  });
}
