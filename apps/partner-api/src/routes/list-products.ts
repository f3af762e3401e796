// GET /api/v2/ota/partner/products: the shopfront's products, cacheable by the partner (ETag, 304, max-age 60).
import { listProductsOperation } from '@backbone/contracts';
import { listOfferedActivities } from '@backbone/db';
import { toProduct } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { PartnerAppDeps } from '../deps.js';

// The list depends on the caller's key, so shared caches must not reuse it for another key.
const CACHING = { 'Cache-Control': 'private, max-age=60', Vary: 'Authorization' };

export function mountListProducts(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(
    routes,
    deps,
    listProductsOperation,
    async ({ query, auth }) => {
      const products = await listOfferedActivities(deps.pool, auth.accountId, query.name ?? null);
      return { status: 200, body: products.map(toProduct), headers: CACHING };
    },
    { etag: true },
  );
}
