// POST /octo/bookings/{uuid}/confirm: the confirm-booking use case (after a change when new unit items or notes came).
import { confirmOctoBookingOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { confirmOctoBooking } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../../deps.js';
import { octoCallerOf, octoViewOf } from '../../octo/octo-http.js';

export function mountConfirmOctoBooking(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, confirmOctoBookingOperation, async ({ params, body, auth, req, res }) => ({
    status: 200,
    body: await confirmOctoBooking(deps, octoCallerOf(auth), params.uuid, body, octoViewOf(req, res)),
  }));
}
