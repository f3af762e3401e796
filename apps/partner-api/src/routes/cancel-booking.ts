// POST /api/v2/ota/partner/booking/:Reference/cancel: cancelled until the activity's cutoff; cancelling again is a 200.
import { cancelBookingOperation } from '@backbone/contracts';
import { bookingActorOf, mountOperation, replayHeaders, type OperationRoutes } from '@backbone/http';
import { cancelBooking } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../deps.js';
import { partnerOf } from './partner-of.js';

export function mountCancelBooking(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, cancelBookingOperation, async ({ params, body, auth, idempotency }) => {
    const { value, replayed } = await cancelBooking(deps, { owner: partnerOf(auth), reference: params.Reference }, body, bookingActorOf(auth), idempotency);
    return { status: 200, body: value, headers: replayHeaders(replayed) };
  });
}
