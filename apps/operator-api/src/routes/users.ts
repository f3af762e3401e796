// Console users (owners): list from the repository, add and disable through their use cases.
import { createOperatorUserOperation, disableOperatorUserOperation, listOperatorUsersOperation, type ConsoleUser } from '@backbone/contracts';
import { listOperatorUsers, type OperatorUser } from '@backbone/db';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { createOperatorUser, disableOperatorUser } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

const toConsoleUser = (u: OperatorUser): ConsoleUser => ({ UserID: u.id, Email: u.email, Role: u.role, Disabled: u.disabled, CreatedAt: u.createdAt });

export function mountListUsers(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, listOperatorUsersOperation, async ({ auth }) => ({
    status: 200,
    body: (await listOperatorUsers(deps.pool, auth.accountId)).map(toConsoleUser),
    headers: { 'Cache-Control': 'no-store' },
  }));
}

export function mountCreateUser(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, createOperatorUserOperation, async ({ body, auth }) => {
    const { user, password } = await createOperatorUser(deps, { accountId: auth.accountId, email: body.Email, role: body.Role });
    return { status: 201, body: { ...toConsoleUser(user), Password: password }, headers: { 'Cache-Control': 'no-store' } };
  });
}

export function mountDisableUser(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, disableOperatorUserOperation, async ({ params, auth }) => ({
    status: 200,
    body: toConsoleUser(await disableOperatorUser(deps, { accountId: auth.accountId, userId: params.UserID.toLowerCase() })),
  }));
}
