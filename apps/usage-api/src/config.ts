// The usage API's configuration, parsed once at boot from the environment.
import { commonEnv, httpEnv, loadConfig, metricsEnv, rateLimitEnv, redisEnv, type ConfigOf } from '@backbone/config';

export const usageApiEnv = {
  type: 'object',
  required: ['DATABASE_URL'],
  properties: {
    ...commonEnv,
    ...redisEnv,
    ...httpEnv,
    ...rateLimitEnv,
    PORT: { ...httpEnv.PORT, default: 3001 },
    ...metricsEnv,
    METRICS_PORT: { ...metricsEnv.METRICS_PORT, default: 9102 },
    USAGE_BATCH_BODY_LIMIT: { type: 'string', default: '5mb', description: 'Largest body of POST /api/v2/usage/meters/batch (413 above it).' },
    USAGE_WRITER_MAX_BATCH: {
      type: 'integer',
      default: 500,
      minimum: 1,
      maximum: 5000,
      description: 'Most single-entry POSTs committed together by one statement.',
    },
    USAGE_WRITER_CONCURRENCY: {
      type: 'integer',
      default: 2,
      minimum: 1,
      maximum: 64,
      description: 'Group commits in flight at once (each holds one pooled connection).',
    },
  },
} as const;

export type UsageApiConfig = ConfigOf<typeof usageApiEnv>;

export function loadUsageApiConfig(env: Record<string, string | undefined> = process.env): UsageApiConfig {
  return loadConfig(usageApiEnv, env);
}
