// GET /api/v2/ota/partner/availability/:ActivityID/dates: local dates with bookable capacity in a range.
import { listAvailableDatesOperation } from '@backbone/contracts';
import { listAvailableDates } from '@backbone/db';
import { checkDateRange, notFound, toAvailableDate } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { PartnerAppDeps } from '../deps.js';

export function mountListAvailableDates(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, listAvailableDatesOperation, async ({ params, query, auth }) => {
    checkDateRange(query.StartDate, query.EndDate);
    const dates = await listAvailableDates(deps.pool, auth.accountId, params.ActivityID, query.StartDate, query.EndDate, auth.test);
    if (!dates) throw notFound('Activity');
    return { status: 200, body: dates.map(toAvailableDate) };
  });
}
