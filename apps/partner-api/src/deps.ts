// What the partner app takes from whoever composes it (server.ts, a test); app.ts and every route read it from here.
import type { FileStore } from '@backbone/file-store';
import type { AddressRateLimiter, Logger, RouteDeps } from '@backbone/http';
import type { WebhookDeliveryQueue } from '@backbone/publisher';
import type { DestinationPolicy } from '@backbone/webhooks';
import type { ShopPages } from './shop-pages.js';

export interface PartnerAppDeps extends RouteDeps {
  logger: Logger;
  /** Base URI of the problem `type`s. */
  problemBase: string;
  /** Hosts a webhook URL may name although plain http or not public (WEBHOOK_ALLOWED_HOSTS). */
  destinationPolicy: DestinationPolicy;
  /** The webhook delivery queue, where replays add their jobs. */
  webhookDeliveries: WebhookDeliveryQueue;
  /** Where uploaded files' bytes go (FILE_STORE). */
  fileStore: FileStore;
  /** Bytes one account's files may take together (FILE_QUOTA_BYTES). */
  fileQuotaBytes: number;
  /**
   * The built booking page served under /book (BOOKING_PAGE_DIR), each page framed by its own embed origins (from
   * shopPages); null or left out serves none (API tests).
   */
  bookingPageDir?: string | null;
  /** The booking pages the shop API opens by slug (shop-pages.ts); a one-second cache over `pool` unless given. */
  shopPages?: ShopPages;
  /** The shop API's per-address limits (reads, holds, uploads); absent: no limits. */
  shopRateLimiter?: AddressRateLimiter | undefined;
  /** Record the HTTP request metrics (METRICS_ENABLED; default true). */
  recordMetrics?: boolean;
}

/** What the shop routes get: the deps with their pages settled. */
export type ShopAppDeps = PartnerAppDeps & { shopPages: ShopPages };
