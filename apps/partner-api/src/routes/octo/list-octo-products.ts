// GET /octo/products: the shopfront's activities as OCTO products.
import { listOctoProductsOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { listOctoProducts } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../../deps.js';
import { octoViewOf } from '../../octo/octo-http.js';

export function mountListOctoProducts(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, listOctoProductsOperation, async ({ auth, req, res }) => ({
    status: 200,
    body: await listOctoProducts(deps, auth.accountId, octoViewOf(req, res)),
  }));
}
