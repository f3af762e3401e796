// GET /api/v2/operator/timeslots/:TimeslotID/waitlist: a timeslot's waitlist (listTimeslotWaitlist).
import { listTimeslotWaitlistOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { listTimeslotWaitlist } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountListTimeslotWaitlist(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, listTimeslotWaitlistOperation, async ({ params, auth }) => ({
    status: 200,
    body: await listTimeslotWaitlist(deps, { accountId: auth.accountId, timeslotId: params.TimeslotID }),
  }));
}
