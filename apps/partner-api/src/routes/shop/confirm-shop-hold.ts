// POST /api/v2/shop/:Slug/holds/:Token/confirm: Book (confirmShopHold).
import { confirmShopHoldOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { confirmShopHold } from '@backbone/use-cases';
import type { ShopAppDeps } from '../../deps.js';
import { PRIVATE, shopCallerOf } from './shop-caller.js';

export function mountConfirmShopHold(routes: OperationRoutes, deps: ShopAppDeps): void {
  mountOperation(routes, deps, confirmShopHoldOperation, async ({ params, body, req, res }) => {
    const caller = await shopCallerOf(deps, params.Slug, { req, res }, 'hold');
    return { status: 200, body: await confirmShopHold(deps, caller, params.Token, body), headers: PRIVATE };
  });
}
