// POST /api/v2/operator/timeslots/:TimeslotID/close: the close-timeslot use case (owners).
import { closeTimeslotOperation } from '@backbone/contracts';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { closeTimeslot } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountCloseTimeslot(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, closeTimeslotOperation, async ({ params, auth }) => ({
    status: 200,
    body: await closeTimeslot(deps, { accountId: auth.accountId, timeslotId: params.TimeslotID, actor: operatorActorOf(auth) }),
  }));
}
