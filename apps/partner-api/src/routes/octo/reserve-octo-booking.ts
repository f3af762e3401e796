// POST /octo/bookings: a reservation (ON_HOLD) through the create-booking use case; a repeated uuid answers its booking.
import { reserveOctoBookingOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { reserveOctoBooking } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../../deps.js';
import { octoCallerOf, octoViewOf } from '../../octo/octo-http.js';

export function mountReserveOctoBooking(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, reserveOctoBookingOperation, async ({ body, auth, req, res }) => ({
    status: 200,
    body: await reserveOctoBooking(deps, octoCallerOf(auth), body, octoViewOf(req, res)),
  }));
}
