// POST /api/v2/operator/bookings/:Reference/check-in: the party arrived, or some of it (a repeat keeps the first time).
import { checkInOperatorBookingOperation } from '@backbone/contracts';
import { operatorActorOf, mountOperation, type OperationRoutes } from '@backbone/http';
import { checkInOperatorBooking } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountCheckInOperatorBooking(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, checkInOperatorBookingOperation, async ({ params, body, auth }) => ({
    status: 200,
    body: await checkInOperatorBooking(deps, { accountId: auth.accountId, reference: params.Reference }, operatorActorOf(auth), body?.Participants),
    headers: { 'Cache-Control': 'no-store' },
  }));
}
