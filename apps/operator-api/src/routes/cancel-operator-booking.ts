// POST /api/v2/operator/bookings/:Reference/cancel: the operator's cancel, at any time; idempotent.
import { cancelOperatorBookingOperation } from '@backbone/contracts';
import { operatorActorOf, mountOperation, replayHeaders, type OperationRoutes } from '@backbone/http';
import { cancelOperatorBooking } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountCancelOperatorBooking(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, cancelOperatorBookingOperation, async ({ params, body, auth, idempotency }) => {
    const ref = { accountId: auth.accountId, reference: params.Reference };
    const { value, replayed } = await cancelOperatorBooking(deps, ref, body, operatorActorOf(auth), idempotency);
    return { status: 200, body: value, headers: { ...replayHeaders(replayed), 'Cache-Control': 'no-store' } };
  });
}
