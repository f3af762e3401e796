// Shared set-up of the metering worker tests: the worker as a child process (for SIGKILL and SIGTERM) and a Redis of
// the test's own; the in-process worker, its queues, events and entries come from @backbone/test-apps.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterEach } from 'vitest';
import { waitFor, type TestDatabase } from '@backbone/testkit';

export {
  countDistinctEvents,
  countEntries,
  entriesOf,
  mixedEvents,
  orderCompleted,
  useQueues,
  useWorkers,
  waitlistNotified,
  workflowEmailSent,
} from '@backbone/test-apps/metering-worker';
export { waitFor } from '@backbone/testkit';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export interface ChildWorker {
  child: ChildProcess;
  /** stdout and stderr so far (for failure messages). */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

// Worker processes a failed test left running are killed after it: one that timed out goes on in the background, and
// its worker would take the next test's jobs (a SIGTERM test then saw its own worker exit at once, with nothing active).
const spawned = new Set<ChildProcess>();
afterEach(() => {
  for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  spawned.clear();
});

/** Runs `tsx apps/metering-worker/src/main.ts` as its own process, the way it runs in production. */
export function spawnWorker(db: TestDatabase, env: Record<string, string>): ChildWorker {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/metering-worker/src/main.ts'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: db.urlWithSchema,
      DATABASE_SCHEMA: db.schema,
      DATABASE_POOL_SIZE: '5',
      LOG_LEVEL: 'info',
      // Several workers run side by side here: each serves its metrics on a free port.
      METRICS_PORT: '0',
      METRICS_HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  spawned.add(child);
  return { child, output: () => output, exited };
}

/** Waits until the child worker logs that it is running (3 s on a quiet machine, over 30 s on a loaded one: tsx compiles it first). */
export async function untilRunning(worker: ChildWorker): Promise<void> {
  await waitFor(
    () => `the worker process to start; its output:\n${worker.output().slice(-2000)}`,
    async () => {
      if (worker.child.exitCode !== null) throw new Error(`worker exited with ${worker.child.exitCode}: ${worker.output().slice(-2000)}`);
      return worker.output().includes('metering worker running');
    },
    120_000,
  );
}

export interface OwnRedis {
  url: string;
  /** Stops the server (SIGKILL: a crash) and starts it again on the same port and data directory. */
  restart(): Promise<void>;
  /** The caller stops it (afterAll). */
  stop(): Promise<void>;
}

/**
 * A redis-server of the test's own, so restarting it harms nobody. AOF with fsync on every write: whatever Redis
 * acknowledged survives the crash, as in production with `appendonly yes`.
 */
export async function startOwnRedis(port: number, dir: string): Promise<OwnRedis> {
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess;
  const launch = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir],
      {
        stdio: 'ignore',
      },
    );
    await waitFor(`redis-server on port ${port}`, async () => {
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } catch {
        return false;
      } finally {
        probe.disconnect();
      }
    });
  };
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  await launch();
  return {
    url,
    async restart() {
      await kill();
      await launch();
    },
    stop: kill,
  };
}
