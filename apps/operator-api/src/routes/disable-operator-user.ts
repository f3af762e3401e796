// POST /api/v2/operator/users/:UserID/disable (owners): the disable-user use case.
import { disableOperatorUserOperation } from '@backbone/contracts';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { disableOperatorUser } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';
import { toConsoleUser } from './to-console-user.js';

export function mountDisableOperatorUser(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, disableOperatorUserOperation, async ({ params, auth }) => ({
    status: 200,
    body: toConsoleUser(await disableOperatorUser(deps, { accountId: auth.accountId, userId: params.UserID.toLowerCase(), actor: operatorActorOf(auth) })),
  }));
}
