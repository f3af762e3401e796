// Entry point: config -> pool, Redis, queues -> migrations -> app -> listen, with graceful shutdown on SIGTERM/SIGINT.
import { createPool, migrate } from '@backbone/db';
import { createKeyVerifier, createLogger, createSessionVerifier, listen, shutdownOnSignals } from '@backbone/http';
import { closeQueues, createRedisConnection, openQueues } from '@backbone/publisher';
import { createOperatorApp } from './app.js';
import { loadOperatorApiConfig } from './config.js';
import { createSignInThrottle } from './sign-in-throttle.js';

const config = loadOperatorApiConfig();
const logger = createLogger({ level: config.LOG_LEVEL, name: 'operator-api' });

try {
  await migrate({ databaseUrl: config.DATABASE_URL, log: (message) => logger.debug(message) });
  const pool = createPool({ connectionString: config.DATABASE_URL, max: config.DATABASE_POOL_SIZE, applicationName: 'operator-api' });
  const redis = createRedisConnection(config.REDIS_URL, 'producer');
  const queues = openQueues(redis, config.QUEUE_PREFIX, (error) => logger.warn({ err: error }, 'queue connection error'));
  const sessions = { idleTimeoutMs: config.SESSION_IDLE_TIMEOUT_MS, absoluteLifetimeMs: config.SESSION_ABSOLUTE_LIFETIME_MS };
  const app = createOperatorApp({
    pool,
    logger,
    problemBase: config.PROBLEM_BASE,
    bodyLimit: config.BODY_LIMIT,
    keyVerifier: createKeyVerifier(pool, config.AUTH_CACHE_TTL_MS),
    sessionVerifier: createSessionVerifier(pool, sessions),
    sessions,
    throttle: createSignInThrottle(redis, { keyPrefix: `${config.QUEUE_PREFIX}:sign-in`, maxFailures: config.SIGN_IN_MAX_FAILURES, windowSeconds: config.SIGN_IN_WINDOW_SECONDS }),
    queues,
    consoleDir: config.CONSOLE_DIR,
    redisReady: async () => (await redis.ping()) === 'PONG',
  });
  const running = await listen(app, { port: config.PORT, host: config.HOST });
  logger.info({ url: running.url }, 'operator API listening');
  shutdownOnSignals(running, {
    logger,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    cleanup: async () => {
      await closeQueues(queues);
      redis.disconnect();
      await pool.end();
    },
  });
} catch (error) {
  logger.fatal({ err: error }, 'operator API failed to start');
  process.exit(1);
}
