// POST /api/v2/operator/users (owners): the add-user use case; the answer carries the one-time password.
import { createOperatorUserOperation } from '@backbone/contracts';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { createOperatorUser } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';
import { toConsoleUser } from './to-console-user.js';

export function mountCreateOperatorUser(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, createOperatorUserOperation, async ({ body, auth }) => {
    const { user, password } = await createOperatorUser(deps, { accountId: auth.accountId, email: body.Email, role: body.Role, actor: operatorActorOf(auth) });
    return { status: 201, body: { ...toConsoleUser(user), Password: password }, headers: { 'Cache-Control': 'no-store' } };
  });
}
