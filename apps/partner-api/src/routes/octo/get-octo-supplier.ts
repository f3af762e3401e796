// GET /octo/supplier: the account as OCTO's supplier; its endpoint is this API's /octo as the caller reached it.
import { getOctoSupplierOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { getOctoSupplier } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../../deps.js';
import { octoViewOf } from '../../octo/octo-http.js';

export function mountGetOctoSupplier(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, getOctoSupplierOperation, async ({ auth, req, res }) => {
    octoViewOf(req, res);
    const supplier = await getOctoSupplier(deps, auth.accountId);
    const host = req.headers['x-forwarded-host'] ?? req.headers.host ?? 'localhost';
    const proto = req.headers['x-forwarded-proto'] ?? 'http';
    return {
      status: 200,
      body: {
        id: supplier.id,
        name: supplier.name,
        endpoint: `${String(proto).split(',')[0]}://${String(host).split(',')[0]}/octo`,
        contact: { website: supplier.website, email: supplier.email, telephone: supplier.phone, address: null },
      },
    };
  });
}
