// The partner API's configuration, parsed once at boot from the environment.
import { commonEnv, fileQuotaEnv, fileStoreEnv, httpEnv, loadConfig, metricsEnv, rateLimitEnv, redisEnv, type ConfigOf } from '@backbone/config';

export const partnerApiEnv = {
  type: 'object',
  required: ['DATABASE_URL'],
  properties: {
    ...commonEnv,
    ...httpEnv,
    ...metricsEnv,
    ...rateLimitEnv,
    REDIS_URL: {
      ...redisEnv.REDIS_URL,
      description:
        'Redis: the API key revocations, the per-key rate limits and the webhook delivery queue. The partner API serves without it: verified keys are trusted for AUTH_CACHE_TTL_MS, requests go unlimited, webhook replays answer 503.',
    },
    QUEUE_PREFIX: redisEnv.QUEUE_PREFIX,
    ...fileStoreEnv,
    ...fileQuotaEnv,
    BOOKING_PAGE_DIR: {
      type: 'string',
      default: 'apps/booking-page/dist',
      description: 'The built booking page served under /book/{Slug} (relative to the working directory).',
    },
    SHOP_RATE_LIMIT_READS_PER_SECOND: {
      type: 'integer',
      default: 10,
      minimum: 1,
      description:
        "The booking pages' API: reads (page, activity, dates, timeslots, a booking) per second of one client address, over time (with RATE_LIMIT_ENABLED).",
    },
    SHOP_RATE_LIMIT_READS_BURST: {
      type: 'integer',
      default: 100,
      minimum: 1,
      description: 'Reads one client address may make at once; at least SHOP_RATE_LIMIT_READS_PER_SECOND.',
    },
    SHOP_RATE_LIMIT_HOLDS_PER_SECOND: {
      type: 'integer',
      default: 1,
      minimum: 1,
      description: "The booking pages' API: holds, releases, confirms, cancels and moves per second of one client address, over time.",
    },
    SHOP_RATE_LIMIT_HOLDS_BURST: {
      type: 'integer',
      default: 10,
      minimum: 1,
      description: 'Such writes one client address may make at once; at least SHOP_RATE_LIMIT_HOLDS_PER_SECOND.',
    },
    SHOP_RATE_LIMIT_UPLOADS_PER_SECOND: {
      type: 'integer',
      default: 1,
      minimum: 1,
      description: "The booking pages' API: file uploads per second of one client address, over time.",
    },
    SHOP_RATE_LIMIT_UPLOADS_BURST: {
      type: 'integer',
      default: 10,
      minimum: 1,
      description: 'Uploads one client address may make at once; at least SHOP_RATE_LIMIT_UPLOADS_PER_SECOND.',
    },
    WEBHOOK_ALLOWED_HOSTS: {
      type: 'string',
      default: '',
      description:
        'Comma-separated host names or IP literals a webhook URL may name over plain http or although not public (local use and tests). Empty: https to public addresses only.',
    },
  },
} as const;

export type PartnerApiConfig = ConfigOf<typeof partnerApiEnv>;

export function loadPartnerApiConfig(env: Record<string, string | undefined> = process.env): PartnerApiConfig {
  return loadConfig(partnerApiEnv, env);
}
