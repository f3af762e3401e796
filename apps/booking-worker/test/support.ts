// Shared set-up of the booking worker tests: the worker as its own process, the way it runs in production (for SIGKILL
// and SIGTERM); the in-process metering worker and its events (a consumer whose jobs the queue gauges count) come from
// @backbone/test-apps.
import { useWorkerProcesses } from '@backbone/testkit';

export { orderCompleted, silentLogger, useQueues, useWorkers } from '@backbone/test-apps/metering-worker';
export { waitFor } from '@backbone/testkit';

/** `tsx apps/booking-worker/src/main.ts` as its own process, on the test file's schema; its metrics on a free port. */
export const { spawn: spawnWorker, untilRunning } = useWorkerProcesses('apps/booking-worker/src/main.ts', 'booking worker');
