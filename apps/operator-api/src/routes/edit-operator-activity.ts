// PATCH /api/v2/operator/activities/:ActivityID: the edit-activity use case (owners).
import { editOperatorActivityOperation } from '@backbone/contracts';
import { toOperatorActivity } from '@backbone/domain';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { editOperatorActivity } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountEditOperatorActivity(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, editOperatorActivityOperation, async ({ params, body, auth }) => ({
    status: 200,
    body: toOperatorActivity(
      await editOperatorActivity(deps, { accountId: auth.accountId, activityId: params.ActivityID, changes: body, actor: operatorActorOf(auth) }),
    ),
  }));
}
