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
      default: 1,
      minimum: 1,
      maximum: 64,
      description:
        'Group commits in flight at once (each holds one pooled connection). One: the jobs that arrive while a statement runs wait for the next one, so statements are larger (about 100 entries instead of 55 at concurrency 300), and a backlog drained about 8% faster than with 2 in a partial bench run, with less CPU per event in the worker and in PostgreSQL. 4 made batches of about 25 entries and cost a third more PostgreSQL CPU per event (issue 27).',
    },
    USAGE_FOLD_ENABLED: {
      type: 'boolean',
      default: true,
      description:
        'Run the usage folder in this process (several may run side by side; one folds at a time): it adds the usage entries written since its last pass to the hourly and daily rollups. Summaries are exact without it, but read every unfolded entry one by one.',
    },
    USAGE_FOLD_INTERVAL_MS: {
      type: 'integer',
      default: 200,
      minimum: 10,
      maximum: 60000,
      description:
        'Pause of the usage folder between passes. Shorter: fewer unfolded entries for a summary to read; longer: each rollup row is updated less often during a burst.',
    },
  },
} as const;

export type MeteringWorkerConfig = ConfigOf<typeof meteringWorkerEnv>;

export function loadMeteringWorkerConfig(env: Record<string, string | undefined> = process.env): MeteringWorkerConfig {
  return loadConfig(meteringWorkerEnv, env);
}
