// DELETE /api/v2/operator/invitations/:InvitationID (owners): the revoke use case.
import { revokeOperatorInvitationOperation } from '@backbone/contracts';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { revokeOperatorInvitation } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountRevokeOperatorInvitation(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, revokeOperatorInvitationOperation, async ({ params, auth }) => {
    await revokeOperatorInvitation(deps, { accountId: auth.accountId, invitationId: params.InvitationID, actor: operatorActorOf(auth) });
    return { status: 204, body: undefined };
  });
}
