// Shared set-up of the metering worker tests: the worker as a child process (for SIGKILL and SIGTERM) and a Redis of
// the test's own; the in-process worker, its queues, events and entries come from @backbone/test-apps.
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { useWorkerProcesses, waitFor } from '@backbone/testkit';

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

/** `tsx apps/metering-worker/src/main.ts` as its own process, the way it runs in production. */
export const { spawn: spawnWorker, untilRunning } = useWorkerProcesses('apps/metering-worker/src/main.ts', 'metering worker');

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
