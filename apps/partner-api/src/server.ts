// Entry point: the partner API's configuration and its own dependencies (the webhook delivery queue, the destination
// policy of webhook URLs) on the start-up every API shares (packages/http start-api-server.ts).
import { createAddressRateLimiter, createRateLimitRedis, startApiServer } from '@backbone/http';
import { openWebhookDeliveryQueue } from '@backbone/publisher';
import { destinationPolicyFrom } from '@backbone/webhooks';
import { openFileStore } from '@backbone/file-store';
import { createPartnerApp } from './app.js';
import { createShopPages } from './shop-pages.js';
import { loadPartnerApiConfig } from './config.js';

const config = loadPartnerApiConfig();

await startApiServer({
  name: 'partner-api',
  title: 'partner API',
  config,
  createApp: ({ logger, pool, redis, keyVerifier, rateLimiter }) => {
    const webhookDeliveries = openWebhookDeliveryQueue(redis, {
      prefix: config.QUEUE_PREFIX,
      onError: (error) => logger.warn({ err: error }, 'webhook queue connection error'),
    });
    const shopLimitsRedis = config.RATE_LIMIT_ENABLED
      ? createRateLimitRedis(config.REDIS_URL, { clientName: 'partner-api:shop-rate-limits', timeoutMs: config.RATE_LIMIT_REDIS_TIMEOUT_MS })
      : null;
    const shopRateLimiter = shopLimitsRedis
      ? createAddressRateLimiter({
          redis: shopLimitsRedis,
          logger,
          budgets: {
            read: { perSecond: config.SHOP_RATE_LIMIT_READS_PER_SECOND, burst: config.SHOP_RATE_LIMIT_READS_BURST },
            hold: { perSecond: config.SHOP_RATE_LIMIT_HOLDS_PER_SECOND, burst: config.SHOP_RATE_LIMIT_HOLDS_BURST },
            upload: { perSecond: config.SHOP_RATE_LIMIT_UPLOADS_PER_SECOND, burst: config.SHOP_RATE_LIMIT_UPLOADS_BURST },
          },
        })
      : undefined;
    const fileStore = openFileStore(config);
    logger.info({ fileStore: fileStore.description }, 'file store');
    const app = createPartnerApp({
      pool,
      logger,
      problemBase: config.PROBLEM_BASE,
      recordMetrics: config.METRICS_ENABLED,
      bodyLimit: config.BODY_LIMIT,
      keyVerifier,
      destinationPolicy: destinationPolicyFrom(config.WEBHOOK_ALLOWED_HOSTS),
      webhookDeliveries,
      rateLimiter,
      fileStore,
      fileQuotaBytes: config.FILE_QUOTA_BYTES,
      shopPages: createShopPages(pool),
      bookingPageDir: config.BOOKING_PAGE_DIR,
      shopRateLimiter,
    });
    return {
      app,
      close: async () => {
        shopLimitsRedis?.disconnect();
        await webhookDeliveries.close();
      },
    };
  },
});
