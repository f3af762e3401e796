// The usage API as an Express app without listen(): recording usage entries (one or a batch), usage summaries,
// and the HTTP door for platform events. server.ts wires the real dependencies; tests drive it in-process.
import type { Express } from 'express';
import { PLATFORM_OPERATIONS, USAGE_OPERATIONS } from '@backbone/contracts';
import { isDatabaseReachable } from '@backbone/db';
import { buildApiDocument, createHttpApp, mountOperations } from '@backbone/http';
import type { UsageAppDeps } from './deps.js';
import { mountGetUsageSummary } from './routes/get-usage-summary.js';
import { mountPublishPlatformEvent } from './routes/publish-platform-event.js';
import { mountRecordUsageEntries } from './routes/record-usage-entries.js';
import { mountRecordUsageEntry } from './routes/record-usage-entry.js';

export function createUsageApp(deps: UsageAppDeps): Express {
  return createHttpApp({
    logger: deps.logger,
    problemBase: deps.problemBase,
    recordMetrics: deps.recordMetrics ?? true,
    readiness: { database: () => isDatabaseReachable(deps.pool), redis: deps.redisReady },
    openApiDocument: buildApiDocument(),
    mount(routes) {
      mountOperations(
        routes,
        USAGE_OPERATIONS,
        { recordUsageEntry: mountRecordUsageEntry, recordUsageEntries: mountRecordUsageEntries, getUsageSummary: mountGetUsageSummary },
        deps,
      );
      mountOperations(routes, PLATFORM_OPERATIONS, { publishPlatformEvent: mountPublishPlatformEvent }, deps);
    },
  });
}
