// POST /api/v2/operator/invitations (owners): the invite use case; the e-mail leaves through the mail outbox.
import { inviteOperatorUserOperation } from '@backbone/contracts';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { inviteOperatorUser } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';
import { inviterOf, toConsoleInvitation } from './to-console-user.js';

export function mountInviteOperatorUser(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, inviteOperatorUserOperation, async ({ body, auth }) => {
    const invitation = await inviteOperatorUser(deps, {
      accountId: auth.accountId,
      email: body.Email,
      name: body.Name,
      role: body.Role,
      invitedBy: inviterOf(auth),
      actor: operatorActorOf(auth),
    });
    return { status: 201, body: toConsoleInvitation(invitation) };
  });
}
