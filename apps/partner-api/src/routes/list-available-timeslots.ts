// GET /api/v2/ota/partner/availability/:ActivityID/timeslots: bookable timeslots on a local date, in the
// activity's zone with the UTC offset of each instant (daylight-saving days included).
import { listAvailableTimeslotsOperation } from '@backbone/contracts';
import { listBookableTimeslots } from '@backbone/db';
import { notFound, toAvailableTimeslot } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { PartnerAppDeps } from '../deps.js';

export function mountListAvailableTimeslots(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, listAvailableTimeslotsOperation, async ({ params, query, auth }) => {
    const found = await listBookableTimeslots(deps.pool, auth.accountId, params.ActivityID, query.Date, auth.test);
    if (!found) throw notFound('Activity');
    return { status: 200, body: found.timeslots.map((slot) => toAvailableTimeslot(slot, found.timeZone)) };
  });
}
