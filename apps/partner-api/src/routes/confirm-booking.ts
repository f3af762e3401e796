// POST /api/v2/ota/partner/booking/:Reference/confirm: a hold confirmed before it expires (409 /hold-expired after).
import { confirmBookingOperation } from '@backbone/contracts';
import { bookingActorOf, mountOperation, replayHeaders, type OperationRoutes } from '@backbone/http';
import { confirmBooking } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../deps.js';
import { partnerOf } from './partner-of.js';

export function mountConfirmBooking(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, confirmBookingOperation, async ({ params, body, auth, idempotency }) => {
    const { value, replayed } = await confirmBooking(deps, { owner: partnerOf(auth), reference: params.Reference }, body, bookingActorOf(auth), idempotency);
    return { status: 200, body: value, headers: replayHeaders(replayed) };
  });
}
