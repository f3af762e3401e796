// DELETE /api/v2/shop/:Slug/holds/:Token: the customer gives the hold's places back (releaseShopHold).
import { releaseShopHoldOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { releaseShopHold } from '@backbone/use-cases';
import type { ShopAppDeps } from '../../deps.js';
import { PRIVATE, shopCallerOf } from './shop-caller.js';

export function mountReleaseShopHold(routes: OperationRoutes, deps: ShopAppDeps): void {
  mountOperation(routes, deps, releaseShopHoldOperation, async ({ params, req, res }) => {
    const caller = await shopCallerOf(deps, params.Slug, { req, res }, 'hold');
    await releaseShopHold(deps, caller, params.Token);
    return { status: 204, body: undefined, headers: PRIVATE };
  });
}
