// DELETE /api/v2/operator/keys/:KeyID (owners): through the one revocation that also tells every running API process
// to forget the key at once.
import { revokeOperatorKeyOperation } from '@backbone/contracts';
import { notFound } from '@backbone/domain';
import { mountOperation, revokeKey, type OperationRoutes } from '@backbone/http';
import type { OperatorAppDeps } from '../deps.js';

export function mountRevokeOperatorKey(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, revokeOperatorKeyOperation, async ({ params, auth }) => {
    const { revoked } = await revokeKey(deps.pool, deps.redisUrl, auth.accountId, params.KeyID.toLowerCase());
    if (!revoked) throw notFound('API key');
    return { status: 204, body: undefined };
  });
}
