// The Express plumbing every API shares: request ids and logs, health probes, docs, the mounted operations,
// a problem for unknown routes and the one error handler. Apps add only their operations.
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { docsRouter } from './docs.js';
import { notFoundHandler, errorHandler, sendUnavailable } from './error-handler.js';
import { createHttpMetricsRecorder } from './http-metrics.js';
import { requestLogger } from './logger.js';
import { createOperationRoutes, type OperationRoutes } from './operation-routes.js';

export interface HttpAppOptions {
  logger: Logger;
  problemBase: string;
  /** Named readiness checks for /readyz (database, Redis, ...). */
  readiness: Record<string, () => Promise<boolean>>;
  openApiDocument: object;
  mount: (routes: OperationRoutes) => void;
  /** Record backbone_http_requests_total and backbone_http_request_duration_seconds (default true; METRICS_ENABLED). */
  recordMetrics?: boolean;
  /** Other routes (the console's static files), after the operations and docs, before the not-found problem. */
  extraRoutes?: (app: Express) => void;
}

export function createHttpApp(options: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.locals.problemBase = options.problemBase.replace(/\/+$/, '');
  // For the server's answers to requests that never reach the app (createHttpServer).
  app.locals.logger = options.logger;

  app.use(requestLogger(app, options.logger, options.recordMetrics === false ? undefined : createHttpMetricsRecorder()));
  // The API's operations first, as one layer (operation-routes.ts): they take nearly all the traffic.
  const operations = createOperationRoutes();
  options.mount(operations);
  app.use(operations.middleware);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (req, res) => {
    const results = Object.fromEntries(
      await Promise.all(Object.entries(options.readiness).map(async ([name, check]) => [name, await check().catch(() => false)] as const)),
    );
    const failing = Object.entries(results)
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
    if (failing.length > 0) {
      sendUnavailable(req, res, `Not ready: ${failing.join(', ')} unreachable.`, { checks: results });
      return;
    }
    res.json({ status: 'ready', checks: results });
  });
  app.use(docsRouter(options.openApiDocument));
  options.extraRoutes?.(app);

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
