// POST /api/v2/shop/:Slug/holds: places held while the customer fills in the form (createShopHold).
import { createShopHoldOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { createShopHold } from '@backbone/use-cases';
import type { ShopAppDeps } from '../../deps.js';
import { PRIVATE, shopCallerOf } from './shop-caller.js';

export function mountCreateShopHold(routes: OperationRoutes, deps: ShopAppDeps): void {
  mountOperation(routes, deps, createShopHoldOperation, async ({ params, body, req, res }) => {
    const caller = await shopCallerOf(deps, params.Slug, { req, res }, 'hold');
    return { status: 201, body: await createShopHold(deps, caller, body), headers: PRIVATE };
  });
}
