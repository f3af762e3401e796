// What the usage app takes from whoever composes it (server.ts, a test); app.ts and every route read it from here.
import type { UsageWriter } from '@backbone/db';
import type { Logger, RouteDeps } from '@backbone/http';
import type { EventPublisher } from '@backbone/publisher';

export interface UsageAppDeps extends RouteDeps {
  logger: Logger;
  /** Base URI of the problem `type`s. */
  problemBase: string;
  /** Record the HTTP request metrics (METRICS_ENABLED; default true). */
  recordMetrics?: boolean;
  /** Group-commit writer shared by every single-entry POST. */
  usageWriter: UsageWriter;
  publisher: EventPublisher;
  /** Largest body of POST /api/v2/usage/meters/batch (1,000 entries need more than a single entry's limit). */
  batchBodyLimit: string;
  /** Readiness of the Redis behind the publisher, for /readyz. */
  redisReady: () => Promise<boolean>;
}
