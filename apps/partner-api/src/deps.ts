// What the partner app takes from whoever composes it (server.ts, a test); app.ts and every route read it from here.
import type { FileStore } from '@backbone/file-store';
import type { Logger, RouteDeps } from '@backbone/http';
import type { WebhookDeliveryQueue } from '@backbone/publisher';
import type { DestinationPolicy } from '@backbone/webhooks';
import type { FindBookingPageFraming } from './booking-page-static.js';

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
   * The built booking page served under /book (BOOKING_PAGE_DIR) and how to find a page's framing by its slug; null
   * or left out serves none (API tests).
   */
  bookingPage?: { dir: string; findFraming: FindBookingPageFraming } | null;
  /** Record the HTTP request metrics (METRICS_ENABLED; default true). */
  recordMetrics?: boolean;
}
