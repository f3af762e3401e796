// Composition root of the metering worker: the platform-events worker and the usage folder on the start-up every
// worker shares (packages/shutdown start-worker.ts). On SIGTERM/SIGINT it stops taking jobs, lets the active ones (and
// a fold in flight) finish (up to SHUTDOWN_TIMEOUT_MS; unfinished jobs are redelivered to another worker), then closes
// its connections. The booking side's background work (outbox relay, hold sweeper, the queues' gauges) runs in the
// booking worker, scaled apart from this one.
import { createEventEntryWriter } from '@backbone/db';
import { startWorker } from '@backbone/shutdown';
import { loadMeteringWorkerConfig } from './config.js';
import { platformEventHandlers } from './handlers/index.js';
import { startMeteringWorker } from './metering-worker.js';
import { startUsageFolder } from './usage-folder.js';

const config = loadMeteringWorkerConfig();

await startWorker({
  name: 'metering-worker',
  title: 'metering worker',
  config,
  stopping: 'shutting down: no new jobs, finishing active ones',
  graceOver: 'grace period over: exiting with jobs still active (they will be redelivered)',
  start: ({ logger, pool, openConsumer }) => {
    const writer = createEventEntryWriter(pool, { maxBatchSize: config.USAGE_WRITER_MAX_BATCH, maxConcurrentBatches: config.USAGE_WRITER_CONCURRENCY });
    const metering = startMeteringWorker({
      connection: openConsumer(),
      prefix: config.QUEUE_PREFIX,
      pool,
      writer,
      handlers: platformEventHandlers,
      concurrency: config.WORKER_CONCURRENCY,
      lockDurationMs: config.WORKER_LOCK_DURATION_MS,
      stalledIntervalMs: config.WORKER_STALLED_INTERVAL_MS,
      maxStalledCount: config.WORKER_MAX_STALLED_COUNT,
      logger,
    });
    const folder = config.USAGE_FOLD_ENABLED ? startUsageFolder({ pool, intervalMs: config.USAGE_FOLD_INTERVAL_MS, logger }) : null;
    return {
      summary: { concurrency: config.WORKER_CONCURRENCY, prefix: config.QUEUE_PREFIX, usageFolder: folder !== null },
      untilReady: () => metering.worker.waitUntilReady(),
      stop: async () => {
        await Promise.all([metering.close(), folder?.stop()]);
      },
    };
  },
});
