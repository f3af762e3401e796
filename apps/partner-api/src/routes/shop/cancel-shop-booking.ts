// POST /api/v2/shop/:Slug/bookings/:Token/cancel: the customer cancels at the manage link (cancelShopBooking).
import { cancelShopBookingOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { cancelShopBooking } from '@backbone/use-cases';
import type { ShopAppDeps } from '../../deps.js';
import { PRIVATE, shopCallerOf } from './shop-caller.js';

export function mountCancelShopBooking(routes: OperationRoutes, deps: ShopAppDeps): void {
  mountOperation(routes, deps, cancelShopBookingOperation, async ({ params, body, req, res }) => {
    const caller = await shopCallerOf(deps, params.Slug, { req, res }, 'hold');
    return { status: 200, body: await cancelShopBooking(deps, caller, params.Token, body), headers: PRIVATE };
  });
}
