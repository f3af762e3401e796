// POST /api/v2/operator/activities/:ActivityID/timeslots/remove-empty: the remove-empty-timeslots use case (owners).
import { removeEmptyTimeslotsOperation } from '@backbone/contracts';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { removeEmptyTimeslots } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountRemoveEmptyTimeslots(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, removeEmptyTimeslotsOperation, async ({ params, body, auth }) => {
    const result = await removeEmptyTimeslots(deps, { accountId: auth.accountId, activityId: params.ActivityID, range: body, actor: operatorActorOf(auth) });
    return {
      status: 200,
      body: { Removed: result.removed, Kept: result.kept, Timeslots: result.timeslots.map((t) => ({ Date: t.date, Time: t.time })) },
    };
  });
}
