// GET /api/v2/operator/users (owners): the account's console users, from the repository.
import { listOperatorUsersOperation } from '@backbone/contracts';
import { listOperatorUsers } from '@backbone/db';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { OperatorAppDeps } from '../deps.js';
import { toConsoleUser } from './to-console-user.js';

export function mountListOperatorUsers(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, listOperatorUsersOperation, async ({ auth }) => ({
    status: 200,
    body: (await listOperatorUsers(deps.pool, auth.accountId)).map(toConsoleUser),
    headers: { 'Cache-Control': 'no-store' },
  }));
}
