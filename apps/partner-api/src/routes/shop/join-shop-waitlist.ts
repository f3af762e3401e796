// POST /api/v2/shop/:Slug/waitlist: join a full timeslot's waitlist (joinShopWaitlist); joining again answers the entry.
import { joinShopWaitlistOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { joinShopWaitlist } from '@backbone/use-cases';
import type { ShopAppDeps } from '../../deps.js';
import { PRIVATE, shopCallerOf } from './shop-caller.js';

export function mountJoinShopWaitlist(routes: OperationRoutes, deps: ShopAppDeps): void {
  mountOperation(routes, deps, joinShopWaitlistOperation, async ({ params, body, req, res }) => {
    const caller = await shopCallerOf(deps, params.Slug, { req, res }, 'hold');
    const { entry, created } = await joinShopWaitlist(deps, caller, body);
    return { status: created ? 201 : 200, body: entry, headers: PRIVATE };
  });
}
