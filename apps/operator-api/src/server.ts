// Entry point: config -> migrations -> pool, Redis, queues -> key verifier (and its revocation listener) and sessions
// -> app -> listen, with graceful shutdown on SIGTERM/SIGINT.
import { createPool, migrate, readDatabaseIdentity } from '@backbone/db';
import { rateLimitSettings } from '@backbone/config';
import {
  createKeyVerifier,
  createLogger,
  createSessionVerifier,
  listen,
  listenForKeyRevocations,
  openKeyRateLimiter,
  shutdownOnSignals,
  writeLogsBeforeExit,
} from '@backbone/http';
import { registry, startMetricsServer } from '@backbone/metrics';
import { closeQueues, createRedisConnection, guardQueuePrefix, openQueues } from '@backbone/publisher';
import { openFileStore } from '@backbone/file-store';
import { createOperatorApp } from './app.js';
import { loadOperatorApiConfig } from './config.js';
import { createSignInThrottle } from './sign-in-throttle.js';

const config = loadOperatorApiConfig();
const schema = config.DATABASE_SCHEMA === 'public' ? undefined : config.DATABASE_SCHEMA;
const logger = createLogger({ level: config.LOG_LEVEL, name: 'operator-api' });
writeLogsBeforeExit(logger);

try {
  await migrate({ databaseUrl: config.DATABASE_URL, ...(schema ? { schema } : {}), log: (message) => logger.debug(message) });
  const pool = createPool({
    connectionString: config.DATABASE_URL,
    max: config.DATABASE_POOL_SIZE,
    applicationName: 'operator-api',
    ...(schema ? { schema } : {}),
  });
  const redis = createRedisConnection(config.REDIS_URL, 'producer');
  // The queues must be this database's before a job is replayed (packages/publisher queue-owner.ts). Without Redis the
  // API still serves; the check goes on until Redis answers.
  await guardQueuePrefix({
    connection: redis,
    prefix: config.QUEUE_PREFIX,
    owner: await readDatabaseIdentity(pool),
    waitForRedis: false,
    onUnanswered: (err) => logger.warn({ err }, 'Redis unreachable: checking whose queues these are once it answers'),
    onTaken: (err) => {
      logger.fatal({ err }, "operator API stopping: the queues are another database's");
      process.exit(1);
    },
  });
  const queues = openQueues(redis, config.QUEUE_PREFIX, (error) => logger.warn({ err: error }, 'queue connection error'));
  const keyVerifier = createKeyVerifier(pool, config.AUTH_CACHE_TTL_MS);
  const revocations = listenForKeyRevocations({ redisUrl: config.REDIS_URL, verifier: keyVerifier, logger, clientName: 'operator-api:key-revocations' });
  const rateLimits = openKeyRateLimiter({ settings: rateLimitSettings(config), redisUrl: config.REDIS_URL, logger, clientName: 'operator-api:rate-limits' });
  const sessions = { idleTimeoutMs: config.SESSION_IDLE_TIMEOUT_MS, absoluteLifetimeMs: config.SESSION_ABSOLUTE_LIFETIME_MS };
  const app = createOperatorApp({
    pool,
    logger,
    problemBase: config.PROBLEM_BASE,
    recordMetrics: config.METRICS_ENABLED,
    bodyLimit: config.BODY_LIMIT,
    keyVerifier,
    rateLimiter: rateLimits.rateLimiter,
    redisUrl: config.REDIS_URL,
    sessionVerifier: createSessionVerifier(pool, sessions),
    sessions,
    throttle: createSignInThrottle(redis, {
      keyPrefix: `${config.QUEUE_PREFIX}:sign-in`,
      maxFailures: config.SIGN_IN_MAX_FAILURES,
      maxFailuresPerAddress: config.SIGN_IN_MAX_FAILURES_PER_ADDRESS,
      windowSeconds: config.SIGN_IN_WINDOW_SECONDS,
    }),
    queues,
    consoleDir: config.CONSOLE_DIR,
    fileStore: openFileStore(config),
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
  logger.info({ url: running.url }, 'operator API listening');
  const metrics = config.METRICS_ENABLED ? await startMetricsServer({ port: config.METRICS_PORT, host: config.METRICS_HOST, registry }) : null;
  if (metrics) logger.info({ url: metrics.url }, 'metrics listening');
  shutdownOnSignals(running, {
    logger,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    cleanup: async () => {
      await metrics?.close();
      revocations.close();
      rateLimits.close();
      await closeQueues(queues);
      redis.disconnect();
      await pool.end();
    },
  });
} catch (error) {
  logger.fatal({ err: error }, 'operator API failed to start');
  process.exit(1);
}
