// PATCH /api/v2/ota/partner/booking/:Reference: one of the partner's live bookings moved, resized or edited through the
// change-booking use case, until the activity's cutoff; it fits or nothing changes.
import { changeBookingOperation } from '@backbone/contracts';
import { bookingActorOf, mountOperation, replayHeaders, type OperationRoutes } from '@backbone/http';
import { changeBooking } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../deps.js';
import { partnerOf } from './partner-of.js';

export function mountChangeBooking(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, changeBookingOperation, async ({ params, body, auth, idempotency }) => {
    const request = {
      ...(body.Date !== undefined && body.Time !== undefined ? { move: { date: body.Date, time: body.Time } } : {}),
      ...(body.Participants !== undefined ? { participants: body.Participants } : {}),
      ...(body.Customer !== undefined ? { customer: body.Customer } : {}),
      ...(body.Answers !== undefined ? { answers: body.Answers } : {}),
    };
    const { value, replayed } = await changeBooking(deps, { owner: partnerOf(auth), reference: params.Reference }, request, bookingActorOf(auth), idempotency);
    return { status: 200, body: value, headers: replayHeaders(replayed) };
  });
}
