// POST /api/v2/operator/invitations/open: the open use case reads what an invitation's link opens, for the join page.
import { openOperatorInvitationOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { openOperatorInvitation } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountOpenOperatorInvitation(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, openOperatorInvitationOperation, async ({ body }) => {
    const { invitation, accountName, hasPassword } = await openOperatorInvitation(deps, { token: body.Token });
    return {
      status: 200,
      body: { Email: invitation.email, Name: invitation.name, Role: invitation.role, AccountName: accountName, HasPassword: hasPassword },
      headers: { 'Cache-Control': 'no-store' },
    };
  });
}
