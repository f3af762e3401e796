// Entry point: the usage API's configuration and its own dependencies (the usage writer, the event publisher) on the
// start-up every API shares (packages/http start-api-server.ts). On shutdown, once in-flight requests have finished,
// queued usage entries are committed before the publisher and the pool close.
import { createUsageWriter } from '@backbone/db';
import { startApiServer } from '@backbone/http';
import { createEventPublisher } from '@backbone/publisher';
import { createUsageApp } from './app.js';
import { loadUsageApiConfig } from './config.js';

const config = loadUsageApiConfig();

await startApiServer({
  name: 'usage-api',
  title: 'usage API',
  config,
  createApp: ({ logger, pool, redis, keyVerifier, rateLimiter }) => {
    const usageWriter = createUsageWriter(pool, { maxBatchSize: config.USAGE_WRITER_MAX_BATCH, maxConcurrentBatches: config.USAGE_WRITER_CONCURRENCY });
    // The start-up's Redis connection serves the publisher's queues and the readiness probe.
    const publisher = createEventPublisher({
      connection: redis,
      prefix: config.QUEUE_PREFIX,
      onError: (err) => logger.warn({ err }, 'event queue connection error'),
    });
    const app = createUsageApp({
      pool,
      logger,
      problemBase: config.PROBLEM_BASE,
      recordMetrics: config.METRICS_ENABLED,
      bodyLimit: config.BODY_LIMIT,
      batchBodyLimit: config.USAGE_BATCH_BODY_LIMIT,
      keyVerifier,
      rateLimiter,
      usageWriter,
      publisher,
      redisReady: async () => (await redis.ping()) === 'PONG',
    });
    return {
      app,
      close: async () => {
        await usageWriter.drain();
        await publisher.close();
      },
    };
  },
});
