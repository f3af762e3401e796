// The keys routes (owner only): list from the repository, create and revoke through their use cases (a revocation also
// tells every running API process to forget the key at once).
import { createOperatorKeyOperation, listOperatorKeysOperation, revokeOperatorKeyOperation, type ApiKey } from '@backbone/contracts';
import { listApiKeys } from '@backbone/db';
import { notFound } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { createOperatorKey, revokeKey } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountListKeys(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, listOperatorKeysOperation, async ({ auth }) => {
    const keys: ApiKey[] = (await listApiKeys(deps.pool, auth.accountId)).map((k) => ({
      KeyID: k.id,
      Name: k.name,
      Prefix: k.prefix,
      Scopes: k.scopes,
      CreatedAt: k.createdAt,
      LastUsedAt: k.lastUsedAt,
      RevokedAt: k.revokedAt,
    }));
    return { status: 200, body: keys, headers: { 'Cache-Control': 'no-store' } };
  });
}

export function mountCreateKey(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, createOperatorKeyOperation, async ({ body, auth }) => {
    const key = await createOperatorKey(deps, { accountId: auth.accountId, name: body.Name, scopes: body.Scopes });
    return {
      status: 201,
      body: {
        KeyID: key.id,
        Name: key.name,
        Prefix: key.prefix,
        Scopes: key.scopes,
        CreatedAt: key.createdAt,
        LastUsedAt: null,
        RevokedAt: null,
        Secret: key.secret,
      },
      headers: { 'Cache-Control': 'no-store' },
    };
  });
}

export function mountRevokeKey(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, revokeOperatorKeyOperation, async ({ params, auth }) => {
    const { revoked } = await revokeKey(deps, { accountId: auth.accountId, keyId: params.KeyID.toLowerCase() });
    if (!revoked) throw notFound('API key');
    return { status: 204, body: undefined };
  });
}
