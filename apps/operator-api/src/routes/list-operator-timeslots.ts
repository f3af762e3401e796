// GET /api/v2/operator/activities/:ActivityID/timeslots: the activity's timeslots over a bounded date range.
import { listOperatorTimeslotsOperation, MAX_TIMESLOT_RANGE_DAYS } from '@backbone/contracts';
import { listActivityTimeslots } from '@backbone/db';
import { checkOperatorDateRange, notFound } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { OperatorAppDeps } from '../deps.js';

export function mountListOperatorTimeslots(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, listOperatorTimeslotsOperation, async ({ params, query, auth }) => {
    checkOperatorDateRange(query.From, query.To, MAX_TIMESLOT_RANGE_DAYS);
    const timeslots = await listActivityTimeslots(deps.pool, auth.accountId, params.ActivityID, query.From, query.To);
    if (!timeslots) throw notFound('Activity');
    return { status: 200, body: timeslots, headers: { 'Cache-Control': 'no-store' } };
  });
}
