// The start-up every API process shares, so that each app's server.ts only names itself and builds its app:
// migrations -> pool -> Redis, whose queues must be this database's (packages/publisher queue-owner.ts) -> key
// verifier, its revocation listener and the rate limiter -> the app -> listen -> metrics server -> graceful shutdown
// on SIGTERM/SIGINT (in-flight requests finish, then what the app holds, Redis and the pool close).
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import { rateLimitSettings, type commonEnv, type ConfigOf, type httpEnv, type metricsEnv, type rateLimitEnv, type redisEnv } from '@backbone/config';
import { createPool, migrate, readDatabaseIdentity, type Pool } from '@backbone/db';
import { registry, startMetricsServer } from '@backbone/metrics';
import { createRedisConnection, guardQueuePrefix } from '@backbone/publisher';
import { createKeyVerifier, type KeyVerifier } from './auth.js';
import { listenForKeyRevocations } from './key-revocations.js';
import { createLogger, writeLogsBeforeExit, type Logger } from './logger.js';
import { openKeyRateLimiter, type KeyRateLimiter } from './rate-limits.js';
import { listen, shutdownOnSignals } from './server.js';

/** The variables every API reads (each app's schema spreads these groups in, and may add its own). */
export type ApiServerConfig = ConfigOf<{
  type: 'object';
  properties: typeof commonEnv & typeof redisEnv & typeof httpEnv & typeof metricsEnv & typeof rateLimitEnv;
}>;

/** What the start-up opened, for the app to be built on. */
export interface ApiServerDeps {
  logger: Logger;
  pool: Pool;
  /** A producer connection, on a prefix this database holds; the app may put its queues and probes on it. */
  redis: Redis;
  keyVerifier: KeyVerifier;
  /** None when rate limits are switched off. */
  rateLimiter: KeyRateLimiter | undefined;
}

export interface ApiServerApp {
  app: Express;
  /** Closes what the app's own dependencies hold, after the last request and before Redis and the pool close. */
  close?(): Promise<void>;
}

export interface ApiServerOptions {
  /** The process's name: its logs' service, its database connections' application_name, its Redis clients' prefix. */
  name: string;
  /** How its log lines name it: "<title> listening", "<title> failed to start". */
  title: string;
  config: ApiServerConfig;
  createApp: (deps: ApiServerDeps) => ApiServerApp | Promise<ApiServerApp>;
}

/** Starts the API; a failure to start is logged as fatal and ends the process with exit code 1. */
export async function startApiServer({ name, title, config, createApp }: ApiServerOptions): Promise<void> {
  const schema = config.DATABASE_SCHEMA === 'public' ? undefined : config.DATABASE_SCHEMA;
  const logger = createLogger({ level: config.LOG_LEVEL, name });
  writeLogsBeforeExit(logger);
  try {
    await migrate({ databaseUrl: config.DATABASE_URL, ...(schema ? { schema } : {}), log: (message) => logger.debug(message) });
    const pool = createPool({ connectionString: config.DATABASE_URL, max: config.DATABASE_POOL_SIZE, applicationName: name, ...(schema ? { schema } : {}) });
    const redis = createRedisConnection(config.REDIS_URL, 'producer');
    // The queues must be this database's before a job is queued. Without Redis the API still serves; the check goes on
    // until Redis answers.
    await guardQueuePrefix({
      connection: redis,
      prefix: config.QUEUE_PREFIX,
      owner: await readDatabaseIdentity(pool),
      waitForRedis: false,
      onUnanswered: (err) => logger.warn({ err }, 'Redis unreachable: checking whose queues these are once it answers'),
      onTaken: (err) => {
        logger.fatal({ err }, `${title} stopping: the queues are another database's`);
        process.exit(1);
      },
    });
    const keyVerifier = createKeyVerifier(pool, config.AUTH_CACHE_TTL_MS);
    const revocations = listenForKeyRevocations({ redisUrl: config.REDIS_URL, verifier: keyVerifier, logger, clientName: `${name}:key-revocations` });
    const rateLimits = openKeyRateLimiter({ settings: rateLimitSettings(config), redisUrl: config.REDIS_URL, logger, clientName: `${name}:rate-limits` });
    const api = await createApp({ logger, pool, redis, keyVerifier, rateLimiter: rateLimits.rateLimiter });
    const running = await listen(api.app, {
      port: config.PORT,
      host: config.HOST,
      timeouts: {
        headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
        requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
        connectionsCheckIntervalMs: config.CONNECTIONS_CHECK_INTERVAL_MS,
      },
    });
    logger.info({ url: running.url }, `${title} listening`);
    const metrics = config.METRICS_ENABLED ? await startMetricsServer({ port: config.METRICS_PORT, host: config.METRICS_HOST, registry }) : null;
    if (metrics) logger.info({ url: metrics.url }, 'metrics listening');
    shutdownOnSignals(running, {
      logger,
      timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
      cleanup: async () => {
        await metrics?.close();
        await api.close?.();
        redis.disconnect();
        revocations.close();
        rateLimits.close();
        await pool.end();
      },
    });
  } catch (error) {
    logger.fatal({ err: error }, `${title} failed to start`);
    process.exit(1);
  }
}
