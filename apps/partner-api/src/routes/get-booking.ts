// GET /api/v2/ota/partner/booking/:Reference: one of the caller's partner's bookings with its lifecycle.
import { getBookingOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { getBooking } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../deps.js';
import { partnerOf } from './partner-of.js';

export function mountGetBooking(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, getBookingOperation, async ({ params, auth }) => ({
    status: 200,
    body: await getBooking(deps, { owner: partnerOf(auth), reference: params.Reference }),
  }));
}
