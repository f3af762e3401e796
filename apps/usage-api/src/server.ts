// Entry point: config -> migrations -> pool -> usage writer -> publisher -> app -> listen, with graceful shutdown:
// in-flight requests finish, queued usage entries are committed, then the publisher and the pool close.
import { createPool, createUsageWriter, migrate, readDatabaseIdentity } from '@backbone/db';
import { rateLimitSettings } from '@backbone/config';
import { createKeyVerifier, createLogger, listen, listenForKeyRevocations, openKeyRateLimiter, shutdownOnSignals, writeLogsBeforeExit } from '@backbone/http';
import { registry, startMetricsServer } from '@backbone/metrics';
import { createEventPublisher, createRedisConnection, guardQueuePrefix } from '@backbone/publisher';
import { createUsageApp } from './app.js';
import { loadUsageApiConfig } from './config.js';

const config = loadUsageApiConfig();
const schema = config.DATABASE_SCHEMA === 'public' ? undefined : config.DATABASE_SCHEMA;
const logger = createLogger({ level: config.LOG_LEVEL, name: 'usage-api' });
writeLogsBeforeExit(logger);

try {
  await migrate({ databaseUrl: config.DATABASE_URL, ...(schema ? { schema } : {}), log: (message) => logger.debug(message) });
  const pool = createPool({
    connectionString: config.DATABASE_URL,
    max: config.DATABASE_POOL_SIZE,
    applicationName: 'usage-api',
    ...(schema ? { schema } : {}),
  });
  const usageWriter = createUsageWriter(pool, { maxBatchSize: config.USAGE_WRITER_MAX_BATCH, maxConcurrentBatches: config.USAGE_WRITER_CONCURRENCY });
  // One Redis connection serves the publisher's queues and the readiness probe.
  const redis = createRedisConnection(config.REDIS_URL, 'producer');
  // The queues must be this database's before an event is published (packages/publisher queue-owner.ts). Without Redis
  // the API still serves usage; the check goes on until Redis answers.
  await guardQueuePrefix({
    connection: redis,
    prefix: config.QUEUE_PREFIX,
    owner: await readDatabaseIdentity(pool),
    waitForRedis: false,
    onUnanswered: (err) => logger.warn({ err }, 'Redis unreachable: checking whose queues these are once it answers'),
    onTaken: (err) => {
      logger.fatal({ err }, "usage API stopping: the queues are another database's");
      process.exit(1);
    },
  });
  const publisher = createEventPublisher({
    connection: redis,
    prefix: config.QUEUE_PREFIX,
    onError: (err) => logger.warn({ err }, 'event queue connection error'),
  });
  const keyVerifier = createKeyVerifier(pool, config.AUTH_CACHE_TTL_MS);
  const revocations = listenForKeyRevocations({ redisUrl: config.REDIS_URL, verifier: keyVerifier, logger, clientName: 'usage-api:key-revocations' });
  const rateLimits = openKeyRateLimiter({ settings: rateLimitSettings(config), redisUrl: config.REDIS_URL, logger, clientName: 'usage-api:rate-limits' });
  const app = createUsageApp({
    pool,
    logger,
    problemBase: config.PROBLEM_BASE,
    recordMetrics: config.METRICS_ENABLED,
    bodyLimit: config.BODY_LIMIT,
    batchBodyLimit: config.USAGE_BATCH_BODY_LIMIT,
    keyVerifier,
    rateLimiter: rateLimits.rateLimiter,
    usageWriter,
    publisher,
    redisReady: async () => (await redis.ping()) === 'PONG',
  });
  const running = await listen(app, {
    port: config.PORT,
    host: config.HOST,
    timeouts: {
      headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
      connectionsCheckIntervalMs: config.CONNECTIONS_CHECK_INTERVAL_MS,
    },
  });
  logger.info({ url: running.url }, 'usage API listening');
  const metrics = config.METRICS_ENABLED ? await startMetricsServer({ port: config.METRICS_PORT, host: config.METRICS_HOST, registry }) : null;
  if (metrics) logger.info({ url: metrics.url }, 'metrics listening');
  shutdownOnSignals(running, {
    logger,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    cleanup: async () => {
      await metrics?.close();
      await usageWriter.drain();
      await publisher.close();
      redis.disconnect();
      revocations.close();
      rateLimits.close();
      await pool.end();
    },
  });
} catch (error) {
  logger.fatal({ err: error }, 'usage API failed to start');
  process.exit(1);
}
