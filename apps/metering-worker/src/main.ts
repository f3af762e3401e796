// Composition root of the metering worker: config -> migrations -> pool -> the platform-events worker and the usage
// folder -> graceful shutdown. On SIGTERM/SIGINT it stops taking jobs, lets the active ones (and a fold in flight)
// finish (up to SHUTDOWN_TIMEOUT_MS; unfinished jobs are redelivered to another worker), then closes its connections.
// The booking side's background work (outbox relay, hold sweeper, the queues' gauges) runs in the booking worker,
// scaled apart from this one.
import { createEventEntryWriter, createPool, migrate, readDatabaseIdentity } from '@backbone/db';
import { createLogger, redactUrl, writeLogsBeforeExit } from '@backbone/logging';
import { registry, startMetricsServer } from '@backbone/metrics';
import { createRedisConnection, guardQueuePrefix } from '@backbone/publisher';
import { stopOnSignals } from '@backbone/shutdown';
import { loadMeteringWorkerConfig } from './config.js';
import { platformEventHandlers } from './handlers/index.js';
import { startMeteringWorker } from './metering-worker.js';
import { startUsageFolder } from './usage-folder.js';

const config = loadMeteringWorkerConfig();
const logger = createLogger({ level: config.LOG_LEVEL, name: 'metering-worker' });
writeLogsBeforeExit(logger);
const schema = config.DATABASE_SCHEMA === 'public' ? undefined : config.DATABASE_SCHEMA;

try {
  await migrate({ databaseUrl: config.DATABASE_URL, ...(schema ? { schema } : {}), log: (message) => logger.debug(message) });
  const pool = createPool({
    connectionString: config.DATABASE_URL,
    max: config.DATABASE_POOL_SIZE,
    applicationName: 'metering-worker',
    ...(schema ? { schema } : {}),
  });
  const consumer = createRedisConnection(config.REDIS_URL, 'consumer');
  const producer = createRedisConnection(config.REDIS_URL, 'producer');
  // No job is taken before the queues are known to be this database's (packages/publisher queue-owner.ts): a worker
  // waits for Redis as long as it takes.
  await guardQueuePrefix({
    connection: producer,
    prefix: config.QUEUE_PREFIX,
    owner: await readDatabaseIdentity(pool),
    waitForRedis: true,
    onUnanswered: (err) => logger.warn({ err, redis: redactUrl(config.REDIS_URL) }, 'still waiting for Redis'),
  });
  const writer = createEventEntryWriter(pool, { maxBatchSize: config.USAGE_WRITER_MAX_BATCH, maxConcurrentBatches: config.USAGE_WRITER_CONCURRENCY });

  const metering = startMeteringWorker({
    connection: consumer,
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
  const metrics = config.METRICS_ENABLED ? await startMetricsServer({ port: config.METRICS_PORT, host: config.METRICS_HOST, registry }) : null;
  if (metrics) logger.info({ url: metrics.url }, 'metrics listening');
  // A worker waits for Redis as long as it takes, but says so.
  const waiting = setTimeout(() => logger.warn({ redis: redactUrl(config.REDIS_URL) }, 'still waiting for Redis'), 5000);
  await metering.worker.waitUntilReady();
  clearTimeout(waiting);
  logger.info({ concurrency: config.WORKER_CONCURRENCY, prefix: config.QUEUE_PREFIX, usageFolder: folder !== null }, 'metering worker running');

  stopOnSignals({
    logger,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    stopping: 'shutting down: no new jobs, finishing active ones',
    graceOver: 'grace period over: exiting with jobs still active (they will be redelivered)',
    stop: async () => {
      await Promise.all([metering.close(), folder?.stop()]);
      await metrics?.close();
      await Promise.all([consumer.quit(), producer.quit()]).catch(() => undefined);
      await pool.end();
    },
  });
} catch (error) {
  logger.fatal({ err: error }, 'metering worker failed to start');
  process.exit(1);
}
