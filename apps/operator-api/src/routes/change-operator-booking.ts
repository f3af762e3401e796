// PATCH /api/v2/operator/bookings/:Reference: the party, customer or note changed; it fits or nothing changes.
import { changeOperatorBookingOperation } from '@backbone/contracts';
import { operatorActorOf, mountOperation, replayHeaders, type OperationRoutes } from '@backbone/http';
import { changeOperatorBooking } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountChangeOperatorBooking(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, changeOperatorBookingOperation, async ({ params, body, auth, idempotency }) => {
    const ref = { accountId: auth.accountId, reference: params.Reference };
    const { value, replayed } = await changeOperatorBooking(deps, ref, body, operatorActorOf(auth), idempotency, auth.user?.role ?? 'owner');
    return { status: 200, body: value, headers: { ...replayHeaders(replayed), 'Cache-Control': 'no-store' } };
  });
}
