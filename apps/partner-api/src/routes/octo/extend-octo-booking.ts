// POST /octo/bookings/{uuid}/extend: a reservation's hold, from now on for expirationMinutes.
import { extendOctoBookingOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { extendOctoBooking } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../../deps.js';
import { octoCallerOf, octoViewOf } from '../../octo/octo-http.js';

export function mountExtendOctoBooking(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, extendOctoBookingOperation, async ({ params, body, auth, req, res }) => ({
    status: 200,
    body: await extendOctoBooking(deps, octoCallerOf(auth), params.uuid, body.expirationMinutes, octoViewOf(req, res)),
  }));
}
