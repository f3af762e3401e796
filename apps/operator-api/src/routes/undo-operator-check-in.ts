// DELETE /api/v2/operator/bookings/:Reference/check-in: a check-in made by mistake undone.
import { undoOperatorCheckInOperation } from '@backbone/contracts';
import { operatorActorOf, mountOperation, type OperationRoutes } from '@backbone/http';
import { undoOperatorCheckIn } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountUndoOperatorCheckIn(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, undoOperatorCheckInOperation, async ({ params, auth }) => ({
    status: 200,
    body: await undoOperatorCheckIn(deps, { accountId: auth.accountId, reference: params.Reference }, operatorActorOf(auth)),
    headers: { 'Cache-Control': 'no-store' },
  }));
}
