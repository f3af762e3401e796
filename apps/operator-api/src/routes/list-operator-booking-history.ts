// GET /api/v2/operator/bookings/:Reference/history: the booking's history, oldest first (404 outside the account).
import { listOperatorBookingHistoryOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { listOperatorBookingHistory } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountListOperatorBookingHistory(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, listOperatorBookingHistoryOperation, async ({ params, auth }) => ({
    status: 200,
    body: await listOperatorBookingHistory(deps, { accountId: auth.accountId, reference: params.Reference }),
    headers: { 'Cache-Control': 'no-store' },
  }));
}
