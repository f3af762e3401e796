// Entry point: config -> migrations -> pool, Redis and the webhook delivery queue -> key verifier (and its revocation
// listener) -> app -> listen, with graceful shutdown on SIGTERM/SIGINT.
import { createPool, migrate, readDatabaseIdentity } from '@backbone/db';
import { rateLimitSettings } from '@backbone/config';
import { createRedisConnection, guardQueuePrefix, openWebhookDeliveryQueue } from '@backbone/publisher';
import { destinationPolicyFrom } from '@backbone/webhooks';
import { openFileStore } from '@backbone/file-store';
import { createKeyVerifier, createLogger, listen, listenForKeyRevocations, openKeyRateLimiter, shutdownOnSignals, writeLogsBeforeExit } from '@backbone/http';
import { registry, startMetricsServer } from '@backbone/metrics';
import { createPartnerApp } from './app.js';
import { loadPartnerApiConfig } from './config.js';

const config = loadPartnerApiConfig();
const schema = config.DATABASE_SCHEMA === 'public' ? undefined : config.DATABASE_SCHEMA;
const logger = createLogger({ level: config.LOG_LEVEL, name: 'partner-api' });
writeLogsBeforeExit(logger);

try {
  await migrate({ databaseUrl: config.DATABASE_URL, ...(schema ? { schema } : {}), log: (message) => logger.debug(message) });
  const pool = createPool({
    connectionString: config.DATABASE_URL,
    max: config.DATABASE_POOL_SIZE,
    applicationName: 'partner-api',
    ...(schema ? { schema } : {}),
  });
  const keyVerifier = createKeyVerifier(pool, config.AUTH_CACHE_TTL_MS);
  const revocations = listenForKeyRevocations({ redisUrl: config.REDIS_URL, verifier: keyVerifier, logger, clientName: 'partner-api:key-revocations' });
  const redis = createRedisConnection(config.REDIS_URL, 'producer');
  // The queues must be this database's before a delivery is queued (packages/publisher queue-owner.ts). Without Redis
  // the API still serves; the check goes on until Redis answers.
  await guardQueuePrefix({
    connection: redis,
    prefix: config.QUEUE_PREFIX,
    owner: await readDatabaseIdentity(pool),
    waitForRedis: false,
    onUnanswered: (err) => logger.warn({ err }, 'Redis unreachable: checking whose queues these are once it answers'),
    onTaken: (err) => {
      logger.fatal({ err }, "partner API stopping: the queues are another database's");
      process.exit(1);
    },
  });
  const webhookDeliveries = openWebhookDeliveryQueue(redis, {
    prefix: config.QUEUE_PREFIX,
    onError: (error) => logger.warn({ err: error }, 'webhook queue connection error'),
  });
  const fileStore = openFileStore(config);
  logger.info({ fileStore: fileStore.description }, 'file store');
  const rateLimits = openKeyRateLimiter({ settings: rateLimitSettings(config), redisUrl: config.REDIS_URL, logger, clientName: 'partner-api:rate-limits' });
  const app = createPartnerApp({
    pool,
    logger,
    problemBase: config.PROBLEM_BASE,
    recordMetrics: config.METRICS_ENABLED,
    bodyLimit: config.BODY_LIMIT,
    keyVerifier,
    destinationPolicy: destinationPolicyFrom(config.WEBHOOK_ALLOWED_HOSTS),
    webhookDeliveries,
    rateLimiter: rateLimits.rateLimiter,
    fileStore,
    fileQuotaBytes: config.FILE_QUOTA_BYTES,
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
  logger.info({ url: running.url }, 'partner API listening');
  const metrics = config.METRICS_ENABLED ? await startMetricsServer({ port: config.METRICS_PORT, host: config.METRICS_HOST, registry }) : null;
  if (metrics) logger.info({ url: metrics.url }, 'metrics listening');
  shutdownOnSignals(running, {
    logger,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    cleanup: async () => {
      await metrics?.close();
      revocations.close();
      await webhookDeliveries.close();
      redis.disconnect();
      rateLimits.close();
      await pool.end();
    },
  });
} catch (error) {
  logger.fatal({ err: error }, 'partner API failed to start');
  process.exit(1);
}
