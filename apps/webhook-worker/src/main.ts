// Composition root of the webhook worker: config -> migrations -> pool -> the fan-out and delivery workers ->
// graceful shutdown. On SIGTERM/SIGINT it stops taking jobs, lets the attempts in flight finish (up to
// SHUTDOWN_TIMEOUT_MS; unfinished jobs are redelivered to another worker), then closes its connections.
import { createPool, migrate, readDatabaseIdentity } from '@backbone/db';
import { createLogger, redactUrl, writeLogsBeforeExit } from '@backbone/logging';
import { registry, startMetricsServer } from '@backbone/metrics';
import { createRedisConnection, guardQueuePrefix } from '@backbone/publisher';
import { stopOnSignals } from '@backbone/shutdown';
import { destinationPolicyFrom } from '@backbone/webhooks';
import { loadWebhookWorkerConfig, retryDelaysOf } from './config.js';
import { createWebhookSender } from './send-webhook.js';
import { startWebhookWorker } from './webhook-worker.js';

const config = loadWebhookWorkerConfig();
const policy = destinationPolicyFrom(config.WEBHOOK_ALLOWED_HOSTS);
const logger = createLogger({ level: config.LOG_LEVEL, name: 'webhook-worker' });
writeLogsBeforeExit(logger);
const schema = config.DATABASE_SCHEMA === 'public' ? undefined : config.DATABASE_SCHEMA;

try {
  await migrate({ databaseUrl: config.DATABASE_URL, ...(schema ? { schema } : {}), log: (message) => logger.debug(message) });
  const pool = createPool({
    connectionString: config.DATABASE_URL,
    max: config.DATABASE_POOL_SIZE,
    applicationName: 'webhook-worker',
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
  const sender = createWebhookSender({ policy, timeoutMs: config.WEBHOOK_ATTEMPT_TIMEOUT_MS });

  const webhooks = startWebhookWorker({
    connection: consumer,
    producer,
    prefix: config.QUEUE_PREFIX,
    pool,
    sender,
    logger,
    deliveryConcurrency: config.WEBHOOK_DELIVERY_CONCURRENCY,
    fanOutConcurrency: config.WEBHOOK_FANOUT_CONCURRENCY,
    endpointMaxInFlight: config.WEBHOOK_ENDPOINT_MAX_IN_FLIGHT,
    attemptTimeoutMs: config.WEBHOOK_ATTEMPT_TIMEOUT_MS,
    retryDelaysMs: retryDelaysOf(config),
    disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS,
    lockDurationMs: config.WORKER_LOCK_DURATION_MS,
    stalledIntervalMs: config.WORKER_STALLED_INTERVAL_MS,
    maxStalledCount: config.WORKER_MAX_STALLED_COUNT,
  });
  const metrics = config.METRICS_ENABLED ? await startMetricsServer({ port: config.METRICS_PORT, host: config.METRICS_HOST, registry }) : null;
  if (metrics) logger.info({ url: metrics.url }, 'metrics listening');
  // A worker waits for Redis as long as it takes, but says so.
  const waiting = setTimeout(() => logger.warn({ redis: redactUrl(config.REDIS_URL) }, 'still waiting for Redis'), 5000);
  await Promise.all([...webhooks.fanOut, ...webhooks.delivery].map((worker) => worker.waitUntilReady()));
  clearTimeout(waiting);
  logger.info(
    {
      concurrency: config.WEBHOOK_DELIVERY_CONCURRENCY,
      endpointMaxInFlight: config.WEBHOOK_ENDPOINT_MAX_IN_FLIGHT,
      allowedHosts: policy.allowedHosts,
      prefix: config.QUEUE_PREFIX,
    },
    'webhook worker running',
  );

  stopOnSignals({
    logger,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    stopping: 'shutting down: no new jobs, finishing attempts in flight',
    graceOver: 'grace period over: exiting with jobs still active (they will be redelivered)',
    stop: async () => {
      await webhooks.close();
      await metrics?.close();
      sender.close();
      await Promise.all([consumer.quit(), producer.quit()]).catch(() => undefined);
      await pool.end();
    },
  });
} catch (error) {
  logger.fatal({ err: error }, 'webhook worker failed to start');
  process.exit(1);
}
