// The operator API's configuration, parsed once at boot from the environment.
import { commonEnv, fileQuotaEnv, fileStoreEnv, httpEnv, loadConfig, metricsEnv, rateLimitEnv, redisEnv, type ConfigOf } from '@backbone/config';

export const operatorApiEnv = {
  type: 'object',
  required: ['DATABASE_URL'],
  properties: {
    ...commonEnv,
    ...redisEnv,
    ...httpEnv,
    ...rateLimitEnv,
    ...fileStoreEnv,
    ...fileQuotaEnv,
    PORT: { ...httpEnv.PORT, default: 3003 },
    ...metricsEnv,
    METRICS_PORT: { ...metricsEnv.METRICS_PORT, default: 9103 },
    SESSION_IDLE_TIMEOUT_MS: {
      type: 'integer',
      default: 1_800_000,
      minimum: 1000,
      description: 'A console session unused for this long ends (default 30 minutes).',
    },
    SESSION_ABSOLUTE_LIFETIME_MS: {
      type: 'integer',
      default: 43_200_000,
      minimum: 1000,
      description: 'A console session ends this long after sign-in, used or not (default 12 hours).',
    },
    SIGN_IN_MAX_FAILURES: {
      type: 'integer',
      default: 5,
      minimum: 1,
      description: 'Failed sign-ins of one e-mail from one address within SIGN_IN_WINDOW_SECONDS before that e-mail waits there (429).',
    },
    SIGN_IN_MAX_FAILURES_PER_ADDRESS: {
      type: 'integer',
      default: 100,
      minimum: 1,
      description:
        'Failed sign-ins from one address (an IPv6 /64), whatever the e-mails, within SIGN_IN_WINDOW_SECONDS before only an e-mail without recent failures may still sign in from it.',
    },
    SIGN_IN_WINDOW_SECONDS: { type: 'integer', default: 900, minimum: 1, description: "The sign-in throttle's window." },
    SIGN_IN_HASH_CONCURRENCY: {
      type: 'integer',
      default: 0,
      minimum: 0,
      description:
        'Password hashes (scrypt) the process runs at once for sign-ins; more wait their turn, in arrival order. 0: one per CPU the process may use (os.availableParallelism()).',
    },
    SIGN_IN_MAX_CONCURRENT_PER_ADDRESS: {
      type: 'integer',
      default: 2,
      minimum: 1,
      description:
        'Sign-ins of one address (an IPv6 /64) in progress at once in one process; one more is refused at once, before any look-up or hash (429, Retry-After: 1), and is not counted as a failure.',
    },
    PASSWORD_RESET_MAX_PER_EMAIL: {
      type: 'integer',
      default: 3,
      minimum: 1,
      description:
        'Password reset e-mails to one address within PASSWORD_RESET_WINDOW_SECONDS; further requests for it send nothing (and answer the same 202).',
    },
    PASSWORD_RESET_MAX_PER_ADDRESS: {
      type: 'integer',
      default: 20,
      minimum: 1,
      description: 'Password reset requests from one address (an IPv6 /64), whatever the e-mails, within PASSWORD_RESET_WINDOW_SECONDS before it gets 429.',
    },
    PASSWORD_RESET_WINDOW_SECONDS: { type: 'integer', default: 3600, minimum: 1, description: "The password reset throttle's window." },
    CONSOLE_DIR: { type: 'string', default: 'apps/console/dist', description: 'The built console served under /console (relative to the working directory).' },
  },
} as const;

export type OperatorApiConfig = ConfigOf<typeof operatorApiEnv>;

export function loadOperatorApiConfig(env: Record<string, string | undefined> = process.env): OperatorApiConfig {
  return loadConfig(operatorApiEnv, env);
}
