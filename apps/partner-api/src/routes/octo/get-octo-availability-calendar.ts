// POST /octo/availability/calendar: per local day, what can be booked.
import { getOctoAvailabilityCalendarOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { getOctoAvailabilityCalendar } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../../deps.js';
import { octoViewOf } from '../../octo/octo-http.js';

export function mountGetOctoAvailabilityCalendar(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, getOctoAvailabilityCalendarOperation, async ({ body, auth, req, res }) => ({
    status: 200,
    body: await getOctoAvailabilityCalendar(deps, auth.accountId, body, octoViewOf(req, res), auth.test),
  }));
}
