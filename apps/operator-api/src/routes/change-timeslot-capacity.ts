// PATCH /api/v2/operator/timeslots/:TimeslotID: the change-capacity use case (owners).
import { changeTimeslotCapacityOperation } from '@backbone/contracts';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { changeTimeslotCapacity } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountChangeTimeslotCapacity(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, changeTimeslotCapacityOperation, async ({ params, body, auth }) => ({
    status: 200,
    body: await changeTimeslotCapacity(deps, {
      accountId: auth.accountId,
      timeslotId: params.TimeslotID,
      capacity: body.Capacity,
      actor: operatorActorOf(auth),
    }),
  }));
}
