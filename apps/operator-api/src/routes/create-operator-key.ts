// POST /api/v2/operator/keys (owners): the create-key use case; the answer carries the secret, once.
import { createOperatorKeyOperation } from '@backbone/contracts';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { createOperatorKey } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountCreateOperatorKey(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, createOperatorKeyOperation, async ({ body, auth }) => {
    const key = await createOperatorKey(deps, {
      accountId: auth.accountId,
      name: body.Name,
      scopes: body.Scopes,
      test: body.Test ?? false,
      actor: operatorActorOf(auth),
    });
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
        Test: key.test,
        Secret: key.secret,
      },
      headers: { 'Cache-Control': 'no-store' },
    };
  });
}
