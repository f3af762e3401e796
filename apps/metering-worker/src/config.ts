// The metering worker's configuration, parsed once at boot from the environment.
import { commonEnv, loadConfig, metricsEnv, queueWorkerEnv, redisEnv, type ConfigOf } from '@backbone/config';

export const meteringWorkerEnv = {
  type: 'object',
  required: ['DATABASE_URL'],
  properties: {
    ...commonEnv,
    ...redisEnv,
    ...metricsEnv,
    METRICS_PORT: { ...metricsEnv.METRICS_PORT, default: 9104 },
    WORKER_CONCURRENCY: {
      type: 'integer',
      default: 300,
      minimum: 1,
      maximum: 2000,
      description:
        'Jobs processed at once per worker process. Jobs mostly wait on Redis and on the shared group commit, so this is high: the more jobs wait together, the more entries each statement commits (300 drained a backlog about a fifth faster than 100, with a third less PostgreSQL time per event). Not higher: 600 drained slower than 300 and cost about a third more CPU per event, in the worker and in Redis (issue 27).',
    },
    ...queueWorkerEnv,
    USAGE_WRITER_MAX_BATCH: { type: 'integer', default: 500, minimum: 1, maximum: 5000, description: 'Most entries committed together by one statement.' },
    USAGE_WRITER_CONCURRENCY: {
      type: 'integer',
      default: 2,
      minimum: 1,
      maximum: 64,
      description:
        'Group commits in flight at once (each holds one pooled connection). 4 instead of 2 made smaller batches (about 25 entries instead of 40) and cost about a third more PostgreSQL CPU per event without draining faster (issue 27).',
    },
  },
} as const;

export type MeteringWorkerConfig = ConfigOf<typeof meteringWorkerEnv>;

export function loadMeteringWorkerConfig(env: Record<string, string | undefined> = process.env): MeteringWorkerConfig {
  return loadConfig(meteringWorkerEnv, env);
}
