// POST /api/v2/operator/sales: a point-of-sale sale through the create-sale use case (channel pos).
import { createSaleOperation } from '@backbone/contracts';
import { mountOperation, replayHeaders, type OperationRoutes } from '@backbone/http';
import { createSale } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountCreateSale(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, createSaleOperation, async ({ body, auth, idempotency }) => {
    const { value, replayed } = await createSale(
      deps,
      { accountId: auth.accountId, apiKeyId: auth.keyId, userId: auth.user?.id ?? null, role: auth.user?.role ?? 'owner', channel: 'pos', sale: body },
      idempotency,
    );
    return { status: 201, body: value, headers: replayHeaders(replayed) };
  });
}
