// GET /api/v2/operator/invitations (owners): a plain read of the account's pending invitations.
import { listOperatorInvitationsOperation } from '@backbone/contracts';
import { listPendingInvitations } from '@backbone/db';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { OperatorAppDeps } from '../deps.js';
import { toConsoleInvitation } from './to-console-user.js';

export function mountListOperatorInvitations(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, listOperatorInvitationsOperation, async ({ auth }) => ({
    status: 200,
    body: (await listPendingInvitations(deps.pool, auth.accountId)).map(toConsoleInvitation),
  }));
}
