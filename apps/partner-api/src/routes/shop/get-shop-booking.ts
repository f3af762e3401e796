// GET /api/v2/shop/:Slug/bookings/:Token: the one booking the manage token opens (getShopBooking).
import { getShopBookingOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { getShopBooking } from '@backbone/use-cases';
import type { ShopAppDeps } from '../../deps.js';
import { PRIVATE, shopCallerOf } from './shop-caller.js';

export function mountGetShopBooking(routes: OperationRoutes, deps: ShopAppDeps): void {
  mountOperation(routes, deps, getShopBookingOperation, async ({ params, req, res }) => {
    const caller = await shopCallerOf(deps, params.Slug, { req, res }, 'read');
    return { status: 200, body: await getShopBooking(deps, caller, params.Token), headers: PRIVATE };
  });
}
