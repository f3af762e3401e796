// POST /api/v2/operator/activities: the create-activity use case (owners).
import { createOperatorActivityOperation } from '@backbone/contracts';
import { toOperatorActivity } from '@backbone/domain';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { createOperatorActivity } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountCreateOperatorActivity(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, createOperatorActivityOperation, async ({ body, auth }) => ({
    status: 201,
    body: toOperatorActivity(await createOperatorActivity(deps, { accountId: auth.accountId, activity: body, actor: operatorActorOf(auth) })),
  }));
}
