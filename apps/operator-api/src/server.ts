// Entry point: the operator API's configuration and its own dependencies (the queues it replays jobs on, console
// sessions, the sign-in throttle) on the start-up every API shares (packages/http start-api-server.ts).
import { createSessionVerifier, startApiServer } from '@backbone/http';
import { closeQueues, keyRevocationsOver, openQueues } from '@backbone/publisher';
import { openFileStore } from '@backbone/file-store';
import { createOperatorApp } from './app.js';
import { loadOperatorApiConfig } from './config.js';
import { createPasswordResetThrottle, createSignInThrottle } from './sign-in-throttle.js';

const config = loadOperatorApiConfig();

await startApiServer({
  name: 'operator-api',
  title: 'operator API',
  config,
  createApp: ({ logger, pool, redis, keyVerifier, rateLimiter }) => {
    const queues = openQueues(redis, config.QUEUE_PREFIX, (error) => logger.warn({ err: error }, 'queue connection error'));
    const sessions = { idleTimeoutMs: config.SESSION_IDLE_TIMEOUT_MS, absoluteLifetimeMs: config.SESSION_ABSOLUTE_LIFETIME_MS };
    const app = createOperatorApp({
      pool,
      logger,
      problemBase: config.PROBLEM_BASE,
      recordMetrics: config.METRICS_ENABLED,
      bodyLimit: config.BODY_LIMIT,
      keyVerifier,
      rateLimiter,
      keyRevocations: keyRevocationsOver(config.REDIS_URL),
      sessionVerifier: createSessionVerifier(pool, sessions),
      sessions,
      throttle: createSignInThrottle(redis, {
        keyPrefix: `${config.QUEUE_PREFIX}:sign-in`,
        maxFailures: config.SIGN_IN_MAX_FAILURES,
        maxFailuresPerAddress: config.SIGN_IN_MAX_FAILURES_PER_ADDRESS,
        windowSeconds: config.SIGN_IN_WINDOW_SECONDS,
        hashConcurrency: config.SIGN_IN_HASH_CONCURRENCY,
        maxConcurrentPerAddress: config.SIGN_IN_MAX_CONCURRENT_PER_ADDRESS,
      }),
      resetThrottle: createPasswordResetThrottle(redis, {
        keyPrefix: `${config.QUEUE_PREFIX}:password-reset`,
        maxPerEmail: config.PASSWORD_RESET_MAX_PER_EMAIL,
        maxPerAddress: config.PASSWORD_RESET_MAX_PER_ADDRESS,
        windowSeconds: config.PASSWORD_RESET_WINDOW_SECONDS,
      }),
      queues,
      fileStore: openFileStore(config),
      fileQuotaBytes: config.FILE_QUOTA_BYTES,
      consoleDir: config.CONSOLE_DIR,
      redisReady: async () => (await redis.ping()) === 'PONG',
    });
    return { app, close: () => closeQueues(queues) };
  },
});
