// DELETE /api/v2/operator/keys/:KeyID (owners): the revoke-key use case, which also tells every running API process
// to forget the key at once.
import { revokeOperatorKeyOperation } from '@backbone/contracts';
import { notFound } from '@backbone/domain';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { revokeOperatorKey } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountRevokeOperatorKey(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, revokeOperatorKeyOperation, async ({ params, auth }) => {
    const { revoked } = await revokeOperatorKey(deps, { accountId: auth.accountId, keyId: params.KeyID.toLowerCase(), actor: operatorActorOf(auth) });
    if (!revoked) throw notFound('API key');
    return { status: 204, body: undefined };
  });
}
