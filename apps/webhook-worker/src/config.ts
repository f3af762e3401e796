// The webhook worker's configuration, parsed once at boot from the environment.
import { commonEnv, loadConfig, metricsEnv, queueWorkerEnv, redisEnv, type ConfigOf } from '@backbone/config';

/** Standard Webhooks' schedule (5 s, 5 min, 30 min, 2 h, 5 h, then 10 h), carried on to about three days. */
const DEFAULT_RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, 36_000_000, 36_000_000, 36_000_000, 36_000_000];

export const webhookWorkerEnv = {
  type: 'object',
  required: ['DATABASE_URL'],
  properties: {
    ...commonEnv,
    ...redisEnv,
    ...metricsEnv,
    METRICS_PORT: { ...metricsEnv.METRICS_PORT, default: 9105 },
    WEBHOOK_ALLOWED_HOSTS: {
      type: 'string',
      default: '',
      description:
        'Comma-separated hosts that deliveries may reach even though they resolve to a loopback, private, link-local or metadata address (local receivers, tests). Empty in production.',
    },
    WEBHOOK_DELIVERY_CONCURRENCY: {
      type: 'integer',
      default: 200,
      minimum: 1,
      maximum: 5000,
      description: 'Delivery attempts in flight at once per process. Attempts mostly wait on the network (up to 10 s each), so this is high.',
    },
    WEBHOOK_ENDPOINT_MAX_IN_FLIGHT: {
      type: 'integer',
      default: 10,
      minimum: 1,
      description:
        "Attempts in flight at once to one endpoint per process; further deliveries to it wait (without counting an attempt), so a slow or dead endpoint holds at most this many of the process's slots.",
    },
    WEBHOOK_FANOUT_CONCURRENCY: {
      type: 'integer',
      default: 100,
      minimum: 1,
      maximum: 1000,
      description: 'Booking events fanned out into deliveries at once per process. Each waits on one statement and one Redis call, so this is high too.',
    },
    WEBHOOK_ATTEMPT_TIMEOUT_MS: {
      type: 'integer',
      default: 10_000,
      minimum: 100,
      description: 'Total time of one delivery attempt (connection, request, answer); a failure after it.',
    },
    WEBHOOK_RETRY_DELAYS_MS: {
      type: 'string',
      default: DEFAULT_RETRY_DELAYS_MS.join(','),
      pattern: '^\\s*\\d+(\\s*,\\s*\\d+)*\\s*$',
      description:
        'Delays before each retry, in ms, comma-separated (each varied by up to 20% at random); one attempt more than delays, then the delivery is failed. Default: 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h six times (about 2.8 days).',
    },
    WEBHOOK_DISABLE_AFTER_MS: {
      type: 'integer',
      default: 5 * 24 * 3600 * 1000,
      minimum: 0,
      description: 'An endpoint whose attempts have all failed for longer than this is disabled at its next failure (default 5 days).',
    },
    ...queueWorkerEnv,
  },
} as const;

export type WebhookWorkerConfig = ConfigOf<typeof webhookWorkerEnv>;

export function loadWebhookWorkerConfig(env: Record<string, string | undefined> = process.env): WebhookWorkerConfig {
  return loadConfig(webhookWorkerEnv, env);
}

/** The parsed retry schedule. */
export function retryDelaysOf(config: Pick<WebhookWorkerConfig, 'WEBHOOK_RETRY_DELAYS_MS'>): number[] {
  return config.WEBHOOK_RETRY_DELAYS_MS.split(',').map((delay) => Number(delay.trim()));
}
