// GET /api/v2/ota/partner/resolve-product: one product by ID or by exact name (case-insensitive), never both.
import { resolveProductOperation } from '@backbone/contracts';
import { findOfferedActivityById, findOfferedActivityByName } from '@backbone/db';
import { DomainError, toProduct } from '@backbone/domain';
import { HttpProblem, mountOperation, type OperationRoutes } from '@backbone/http';
import type { PartnerAppDeps } from '../deps.js';

export function mountResolveProduct(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, resolveProductOperation, async ({ query, auth }) => {
    const { ID, Name } = query;
    if ((ID === undefined) === (Name === undefined)) {
      const detail = ID === undefined ? 'Send ID or Name to resolve a product.' : 'Send either ID or Name, not both.';
      throw new HttpProblem('invalid-request', detail, { errors: [{ field: 'ID', message: detail }] });
    }
    const activity =
      ID !== undefined
        ? await findOfferedActivityById(deps.pool, auth.accountId, Number(ID))
        : await findOfferedActivityByName(deps.pool, auth.accountId, Name!);
    if (!activity) throw new DomainError('not-found', ID !== undefined ? `No product with ID ${ID}.` : 'No product with this Name.');
    return { status: 200, body: toProduct(activity) };
  });
}
