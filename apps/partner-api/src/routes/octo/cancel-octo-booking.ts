// POST /octo/bookings/{uuid}/cancel: the cancel-booking use case.
import { cancelOctoBookingOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { cancelOctoBooking } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../../deps.js';
import { octoCallerOf, octoViewOf } from '../../octo/octo-http.js';

export function mountCancelOctoBooking(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, cancelOctoBookingOperation, async ({ params, body, auth, req, res }) => ({
    status: 200,
    body: await cancelOctoBooking(deps, octoCallerOf(auth), params.uuid, body, octoViewOf(req, res)),
  }));
}
