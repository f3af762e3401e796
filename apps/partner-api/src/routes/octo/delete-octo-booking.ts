// DELETE /octo/bookings/{uuid}: the same cancellation as POST .../cancel.
import { deleteOctoBookingOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { deleteOctoBooking } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../../deps.js';
import { octoCallerOf, octoViewOf } from '../../octo/octo-http.js';

export function mountDeleteOctoBooking(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, deleteOctoBookingOperation, async ({ params, body, auth, req, res }) => ({
    status: 200,
    body: await deleteOctoBooking(deps, octoCallerOf(auth), params.uuid, body, octoViewOf(req, res)),
  }));
}
