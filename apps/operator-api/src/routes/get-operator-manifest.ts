// GET /api/v2/operator/manifest: the day's timeslots with their live bookings, read in one statement.
import { getOperatorManifestOperation } from '@backbone/contracts';
import { getManifest } from '@backbone/db';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { OperatorAppDeps } from '../deps.js';

export function mountGetOperatorManifest(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, getOperatorManifestOperation, async ({ query, auth }) => ({
    status: 200,
    body: await getManifest(deps.pool, auth.accountId, query.Date, query.ActivityID?.toLowerCase() ?? null),
    headers: { 'Cache-Control': 'no-store' },
  }));
}
