// The partner API's configuration, parsed once at boot from the environment.
import { commonEnv, httpEnv, loadConfig, metricsEnv, redisEnv, type ConfigOf } from '@backbone/config';

export const partnerApiEnv = {
  type: 'object',
  required: ['DATABASE_URL'],
  properties: {
    ...commonEnv,
    ...httpEnv,
    ...metricsEnv,
    // Only for hearing API key revocations: without Redis the API still serves (the key cache's TTL bounds staleness).
    REDIS_URL: redisEnv.REDIS_URL,
  },
} as const;

export type PartnerApiConfig = ConfigOf<typeof partnerApiEnv>;

export function loadPartnerApiConfig(env: Record<string, string | undefined> = process.env): PartnerApiConfig {
  return loadConfig(partnerApiEnv, env);
}
