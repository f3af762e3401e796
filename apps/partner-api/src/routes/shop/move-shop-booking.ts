// POST /api/v2/shop/:Slug/bookings/:Token/move: the customer moves the booking to another timeslot of its activity
// (moveShopBooking).
import { moveShopBookingOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { moveShopBooking } from '@backbone/use-cases';
import type { ShopAppDeps } from '../../deps.js';
import { PRIVATE, shopCallerOf } from './shop-caller.js';

export function mountMoveShopBooking(routes: OperationRoutes, deps: ShopAppDeps): void {
  mountOperation(routes, deps, moveShopBookingOperation, async ({ params, body, req, res }) => {
    const caller = await shopCallerOf(deps, params.Slug, { req, res }, 'hold');
    return { status: 200, body: await moveShopBooking(deps, caller, params.Token, body), headers: PRIVATE };
  });
}
