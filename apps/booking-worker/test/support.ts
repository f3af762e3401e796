// Shared set-up of the booking worker tests: the worker as its own process, the way it runs in production (for SIGKILL
// and SIGTERM); the in-process metering worker and its events (a consumer whose jobs the queue gauges count) come from
// @backbone/test-apps.
import { useServiceProcesses, type ServiceProcess, type TestDatabase } from '@backbone/testkit';

export { orderCompleted, silentLogger, useQueues, useWorkers } from '@backbone/test-apps/metering-worker';
export { waitFor } from '@backbone/testkit';

// Worker processes a failed test left running are killed after the file.
const services = useServiceProcesses();

/** Runs `tsx apps/booking-worker/src/main.ts` on the test file's schema; its metrics on a free port. */
export function spawnWorker(db: TestDatabase, env: Record<string, string>): ServiceProcess {
  return services.spawn('apps/booking-worker/src/main.ts', {
    DATABASE_URL: db.urlWithSchema,
    DATABASE_SCHEMA: db.schema,
    DATABASE_POOL_SIZE: '5',
    LOG_LEVEL: 'info',
    ...env,
  });
}

/** Waits until the child worker logs that it is running. */
export async function untilRunning(worker: ServiceProcess): Promise<void> {
  await worker.waitForLine('"booking worker running"', (line) => line.msg === 'booking worker running', 60_000);
}
