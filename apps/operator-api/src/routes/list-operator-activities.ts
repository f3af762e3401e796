// GET /api/v2/operator/activities: every activity of the account, as the console lists and edits them.
import { listOperatorActivitiesOperation } from '@backbone/contracts';
import { listActivities } from '@backbone/db';
import { toOperatorActivity } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { OperatorAppDeps } from '../deps.js';

export function mountListOperatorActivities(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, listOperatorActivitiesOperation, async ({ auth }) => {
    const activities = await listActivities(deps.pool, auth.accountId);
    const byName = activities.map(toOperatorActivity).sort((a, b) => a.Name.toLowerCase().localeCompare(b.Name.toLowerCase()) || a.ID - b.ID);
    return { status: 200, body: byName, headers: { 'Cache-Control': 'no-store' } };
  });
}
