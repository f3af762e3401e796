// POST /api/v2/operator/bookings/:Reference/reschedule: the booking moved to another timeslot, of its activity or another.
import { rescheduleOperatorBookingOperation } from '@backbone/contracts';
import { operatorActorOf, mountOperation, replayHeaders, type OperationRoutes } from '@backbone/http';
import { rescheduleOperatorBooking } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountRescheduleOperatorBooking(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, rescheduleOperatorBookingOperation, async ({ params, body, auth, idempotency }) => {
    const ref = { accountId: auth.accountId, reference: params.Reference };
    const { value, replayed } = await rescheduleOperatorBooking(deps, ref, body, operatorActorOf(auth), idempotency);
    return { status: 200, body: value, headers: { ...replayHeaders(replayed), 'Cache-Control': 'no-store' } };
  });
}
