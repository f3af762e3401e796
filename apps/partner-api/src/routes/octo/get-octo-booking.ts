// GET /octo/bookings/{uuid}: one of the reseller's OCTO bookings.
import { getOctoBookingOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { getOctoBooking } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../../deps.js';
import { octoCallerOf, octoViewOf } from '../../octo/octo-http.js';

export function mountGetOctoBooking(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, getOctoBookingOperation, async ({ params, auth, req, res }) => ({
    status: 200,
    body: await getOctoBooking(deps, octoCallerOf(auth), params.uuid, octoViewOf(req, res)),
  }));
}
