// POST /api/v2/operator/timeslots/:TimeslotID/reopen: the reopen-timeslot use case (owners).
import { reopenTimeslotOperation } from '@backbone/contracts';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { reopenTimeslot } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountReopenTimeslot(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, reopenTimeslotOperation, async ({ params, auth }) => ({
    status: 200,
    body: await reopenTimeslot(deps, { accountId: auth.accountId, timeslotId: params.TimeslotID, actor: operatorActorOf(auth) }),
  }));
}
