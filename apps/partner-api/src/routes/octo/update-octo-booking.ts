// PATCH /octo/bookings/{uuid}: the change-booking use case (another availability, unit items, contact, notes).
import { updateOctoBookingOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { updateOctoBooking } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../../deps.js';
import { octoCallerOf, octoViewOf } from '../../octo/octo-http.js';

export function mountUpdateOctoBooking(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, updateOctoBookingOperation, async ({ params, body, auth, req, res }) => ({
    status: 200,
    body: await updateOctoBooking(deps, octoCallerOf(auth), params.uuid, body, octoViewOf(req, res)),
  }));
}
