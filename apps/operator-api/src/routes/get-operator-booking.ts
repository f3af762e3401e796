// GET /api/v2/operator/bookings/:Reference: one booking of the account, with its waiver answers (404 otherwise).
import { getOperatorBookingOperation } from '@backbone/contracts';
import { findOperatorBooking } from '@backbone/db';
import { notFound } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { OperatorAppDeps } from '../deps.js';

export function mountGetOperatorBooking(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, getOperatorBookingOperation, async ({ params, auth }) => {
    const booking = await findOperatorBooking(deps.pool, auth.accountId, params.Reference);
    if (!booking) throw notFound('Booking');
    return { status: 200, body: booking, headers: { 'Cache-Control': 'no-store' } };
  });
}
