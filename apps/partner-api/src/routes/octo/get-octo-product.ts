// GET /octo/products/{productId}: one product (INVALID_PRODUCT_ID for anything not in the shopfront).
import { getOctoProductOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { getOctoProduct } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../../deps.js';
import { octoViewOf } from '../../octo/octo-http.js';

export function mountGetOctoProduct(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, getOctoProductOperation, async ({ params, auth, req, res }) => ({
    status: 200,
    body: await getOctoProduct(deps, auth.accountId, params.productId, octoViewOf(req, res)),
  }));
}
