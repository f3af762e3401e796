// GET /octo/bookings: the reseller's OCTO bookings by reference or local date range (a bare list is BAD_REQUEST).
import { listOctoBookingsOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { listOctoBookings } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../../deps.js';
import { octoCallerOf, octoViewOf } from '../../octo/octo-http.js';

export function mountListOctoBookings(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, listOctoBookingsOperation, async ({ query, auth, req, res }) => ({
    status: 200,
    body: await listOctoBookings(deps, octoCallerOf(auth), query, octoViewOf(req, res)),
  }));
}
