// What the partner app takes from whoever composes it (server.ts, a test); app.ts and every route read it from here.
import type { Logger, RouteDeps } from '@backbone/http';

export interface PartnerAppDeps extends RouteDeps {
  logger: Logger;
  /** Base URI of the problem `type`s. */
  problemBase: string;
  /** Record the HTTP request metrics (METRICS_ENABLED; default true). */
  recordMetrics?: boolean;
}
