// The start-up every worker process shares, as startApiServer (packages/http) is the APIs': migrations -> pool ->
// Redis, waited for as long as it takes and whose queues must be this database's (packages/publisher queue-owner.ts)
// -> the worker's own work -> metrics server -> "<title> running" -> the orderly stop on SIGTERM/SIGINT (what is in
// flight finishes, then the metrics server, what the worker holds, Redis and the pool close).
import type { Redis } from 'ioredis';
import type { commonEnv, ConfigOf, metricsEnv, redisEnv } from '@backbone/config';
import { createPool, migrate, readDatabaseIdentity, type Pool } from '@backbone/db';
import { createLogger, redactUrl, writeLogsBeforeExit, type Logger } from '@backbone/logging';
import { registry, startMetricsServer } from '@backbone/metrics';
import { createRedisConnection, guardQueuePrefix } from '@backbone/publisher';
import { stopOnSignals } from './stop-on-signals.js';

/** The variables every worker reads (each worker's schema spreads these groups in, and adds its grace period). */
export type WorkerConfig = ConfigOf<{ type: 'object'; properties: typeof commonEnv & typeof redisEnv & typeof metricsEnv }> & {
  readonly SHUTDOWN_TIMEOUT_MS: number;
};

/** What the start-up opened, for the worker's own work to run on. */
export interface WorkerDeps {
  logger: Logger;
  pool: Pool;
  /** A producer connection (commands fail fast while Redis is away), on a prefix this database holds. */
  producer: Redis;
  /** Opens a consumer connection for BullMQ Workers; the start-up closes it after the worker stopped. */
  openConsumer: () => Redis;
}

export interface StartedWorker {
  /** The fields of the "<title> running" line. */
  summary: Record<string, unknown>;
  /** Resolves once the worker can take jobs (BullMQ Workers connected); until then Redis is said to be awaited. */
  untilReady?(): Promise<unknown>;
  /** Stops taking work and waits for what is in flight. */
  stop(): Promise<void>;
  /** Closes what the worker's own dependencies hold, after the metrics server and before Redis and the pool close. */
  close?(): Promise<void>;
}

export interface WorkerOptions {
  /** The process's name: its logs' service, its database connections' application_name. */
  name: string;
  /** How its log lines name it: "<title> running", "<title> failed to start". */
  title: string;
  config: WorkerConfig;
  /** The line on SIGTERM: what the worker no longer takes and what it lets finish. */
  stopping: string;
  /** The line when the grace period ends first: what is left behind, and what becomes of it. */
  graceOver: string;
  start: (deps: WorkerDeps) => StartedWorker | Promise<StartedWorker>;
}

/** Starts the worker; a failure to start is logged as fatal and ends the process with exit code 1. */
export async function startWorker({ name, title, config, stopping, graceOver, start }: WorkerOptions): Promise<void> {
  const logger = createLogger({ level: config.LOG_LEVEL, name });
  writeLogsBeforeExit(logger);
  const schema = config.DATABASE_SCHEMA === 'public' ? undefined : config.DATABASE_SCHEMA;
  try {
    await migrate({ databaseUrl: config.DATABASE_URL, ...(schema ? { schema } : {}), log: (message) => logger.debug(message) });
    const pool = createPool({ connectionString: config.DATABASE_URL, max: config.DATABASE_POOL_SIZE, applicationName: name, ...(schema ? { schema } : {}) });
    const producer = createRedisConnection(config.REDIS_URL, 'producer');
    // No job is taken, nothing relayed or swept, before the queues are known to be this database's: a worker waits for
    // Redis as long as it takes.
    await guardQueuePrefix({
      connection: producer,
      prefix: config.QUEUE_PREFIX,
      owner: await readDatabaseIdentity(pool),
      waitForRedis: true,
      onUnanswered: (err) => logger.warn({ err, redis: redactUrl(config.REDIS_URL) }, 'still waiting for Redis'),
    });
    const consumers: Redis[] = [];
    const worker = await start({
      logger,
      pool,
      producer,
      openConsumer: () => {
        const consumer = createRedisConnection(config.REDIS_URL, 'consumer');
        consumers.push(consumer);
        return consumer;
      },
    });
    const metrics = config.METRICS_ENABLED ? await startMetricsServer({ port: config.METRICS_PORT, host: config.METRICS_HOST, registry }) : null;
    if (metrics) logger.info({ url: metrics.url }, 'metrics listening');
    if (worker.untilReady) {
      // A worker waits for Redis as long as it takes, but says so.
      const waiting = setTimeout(() => logger.warn({ redis: redactUrl(config.REDIS_URL) }, 'still waiting for Redis'), 5000);
      await worker.untilReady();
      clearTimeout(waiting);
    }
    logger.info(worker.summary, `${title} running`);

    stopOnSignals({
      logger,
      timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
      stopping,
      graceOver,
      stop: async () => {
        await worker.stop();
        await metrics?.close();
        await worker.close?.();
        await Promise.all([...consumers, producer].map((connection) => connection.quit())).catch(() => undefined);
        await pool.end();
      },
    });
  } catch (error) {
    logger.fatal({ err: error }, `${title} failed to start`);
    process.exit(1);
  }
}
