// Composition root of the booking worker: config -> migrations -> pool -> the outbox relay, the hold sweeper, the
// sweeper of unreferenced files and the scrape-time gauges -> graceful shutdown. It runs the booking side's background
// work apart from the metering worker, so each is scaled for its own load. On SIGTERM/SIGINT it lets the passes in flight finish (up to
// SHUTDOWN_TIMEOUT_MS), then closes its connections.
import { createPool, migrate, readDatabaseIdentity } from '@backbone/db';
import { createLogger, redactUrl, writeLogsBeforeExit } from '@backbone/logging';
import { registry, startMetricsServer } from '@backbone/metrics';
import { closeQueues, createRedisConnection, guardQueuePrefix, openQueues } from '@backbone/publisher';
import { stopOnSignals } from '@backbone/shutdown';
import { loadBookingWorkerConfig } from './config.js';
import { openFileStore } from '@backbone/file-store';
import { startFileSweeper, type FileSweeper } from './file-sweeper.js';
import { startHoldSweeper, type HoldSweeper } from './hold-sweeper.js';
import { startOutboxRelay, type OutboxRelay } from './outbox-relay.js';
import { collectScrapeGauges } from './scrape-gauges.js';

const config = loadBookingWorkerConfig();
const logger = createLogger({ level: config.LOG_LEVEL, name: 'booking-worker' });
writeLogsBeforeExit(logger);
const schema = config.DATABASE_SCHEMA === 'public' ? undefined : config.DATABASE_SCHEMA;

try {
  await migrate({ databaseUrl: config.DATABASE_URL, ...(schema ? { schema } : {}), log: (message) => logger.debug(message) });
  const pool = createPool({
    connectionString: config.DATABASE_URL,
    max: config.DATABASE_POOL_SIZE,
    applicationName: 'booking-worker',
    ...(schema ? { schema } : {}),
  });
  // Commands fail fast on this connection: a relay pass or a scrape does not hang while Redis is away.
  const producer = createRedisConnection(config.REDIS_URL, 'producer');
  // Nothing is relayed or swept before the queues are known to be this database's (packages/publisher
  // queue-owner.ts): the worker waits for Redis as long as it takes.
  await guardQueuePrefix({
    connection: producer,
    prefix: config.QUEUE_PREFIX,
    owner: await readDatabaseIdentity(pool),
    waitForRedis: true,
    onUnanswered: (err) => logger.warn({ err, redis: redactUrl(config.REDIS_URL) }, 'still waiting for Redis'),
  });
  const queues = openQueues(producer, config.QUEUE_PREFIX, (err) => logger.warn({ err }, 'outbox queue connection error'));
  const relay: OutboxRelay | null = config.OUTBOX_RELAY_ENABLED
    ? startOutboxRelay({
        pool,
        queues,
        batchSize: config.OUTBOX_RELAY_BATCH_SIZE,
        intervalMs: config.OUTBOX_RELAY_INTERVAL_MS,
        maxBacklog: config.OUTBOX_QUEUE_MAX_BACKLOG,
        logger,
      })
    : null;
  const sweeper: HoldSweeper | null = config.HOLD_SWEEPER_ENABLED
    ? startHoldSweeper({ pool, intervalMs: config.HOLD_SWEEPER_INTERVAL_MS, batchSize: config.HOLD_SWEEPER_BATCH_SIZE, logger })
    : null;
  const files: FileSweeper | null = config.FILE_SWEEPER_ENABLED
    ? startFileSweeper({
        pool,
        fileStore: openFileStore(config),
        intervalMs: config.FILE_SWEEPER_INTERVAL_MS,
        batchSize: config.FILE_SWEEPER_BATCH_SIZE,
        logger,
      })
    : null;
  const gauges = config.METRICS_ENABLED ? collectScrapeGauges({ pool, connection: producer, prefix: config.QUEUE_PREFIX, logger }) : null;
  const metrics = config.METRICS_ENABLED ? await startMetricsServer({ port: config.METRICS_PORT, host: config.METRICS_HOST, registry }) : null;
  if (metrics) logger.info({ url: metrics.url }, 'metrics listening');
  logger.info({ relay: relay !== null, sweeper: sweeper !== null, fileSweeper: files !== null, prefix: config.QUEUE_PREFIX }, 'booking worker running');

  stopOnSignals({
    logger,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    stopping: 'shutting down: no new passes, finishing the ones in flight',
    graceOver: 'grace period over: exiting in the middle of a pass (what it had not committed is done again by the next one)',
    stop: async () => {
      await Promise.all([relay?.stop(), sweeper?.stop(), files?.stop()]);
      await Promise.all([metrics?.close(), gauges?.close()]);
      await closeQueues(queues);
      await producer.quit().catch(() => undefined);
      await pool.end();
    },
  });
} catch (error) {
  logger.fatal({ err: error }, 'booking worker failed to start');
  process.exit(1);
}
