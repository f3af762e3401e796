// The partner API's configuration, parsed once at boot from the environment.
import { commonEnv, httpEnv, loadConfig, type ConfigOf } from '@backbone/config';

export const partnerApiEnv = {
  type: 'object',
  required: ['DATABASE_URL'],
  properties: {
    ...commonEnv,
    ...httpEnv,
  },
} as const;

export type PartnerApiConfig = ConfigOf<typeof partnerApiEnv>;

export function loadPartnerApiConfig(env: Record<string, string | undefined> = process.env): PartnerApiConfig {
  return loadConfig(partnerApiEnv, env);
}
