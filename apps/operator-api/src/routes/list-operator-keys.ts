// GET /api/v2/operator/keys (owners): the account's keys from the repository, prefixes only.
import { listOperatorKeysOperation, type ApiKey } from '@backbone/contracts';
import { listApiKeys } from '@backbone/db';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { OperatorAppDeps } from '../deps.js';

export function mountListOperatorKeys(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, listOperatorKeysOperation, async ({ auth }) => {
    const keys: ApiKey[] = (await listApiKeys(deps.pool, auth.accountId)).map((k) => ({
      KeyID: k.id,
      Name: k.name,
      Prefix: k.prefix,
      Scopes: k.scopes,
      CreatedAt: k.createdAt,
      LastUsedAt: k.lastUsedAt,
      RevokedAt: k.revokedAt,
      Test: k.test,
    }));
    return { status: 200, body: keys, headers: { 'Cache-Control': 'no-store' } };
  });
}
