// POST /api/v2/operator/invitations/:InvitationID/resend (owners): the resend use case.
import { resendOperatorInvitationOperation } from '@backbone/contracts';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { resendOperatorInvitation } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';
import { inviterOf, toConsoleInvitation } from './to-console-user.js';

export function mountResendOperatorInvitation(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, resendOperatorInvitationOperation, async ({ params, auth }) => {
    const invitation = await resendOperatorInvitation(deps, {
      accountId: auth.accountId,
      invitationId: params.InvitationID,
      invitedBy: inviterOf(auth),
      actor: operatorActorOf(auth),
    });
    return { status: 200, body: toConsoleInvitation(invitation) };
  });
}
