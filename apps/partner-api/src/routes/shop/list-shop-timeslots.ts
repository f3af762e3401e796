// GET /api/v2/shop/:Slug/activities/:ActivityID/timeslots?Date=YYYY-MM-DD: the timeslots of a date, the full ones
// marked full.
import { listShopTimeslotsOperation } from '@backbone/contracts';
import { listShopTimeslots } from '@backbone/db';
import { notFound, toShopTimeslot } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { ShopAppDeps } from '../../deps.js';
import { shopCallerOf } from './shop-caller.js';

export function mountListShopTimeslots(routes: OperationRoutes, deps: ShopAppDeps): void {
  mountOperation(routes, deps, listShopTimeslotsOperation, async ({ params, query, req, res }) => {
    const { page } = await shopCallerOf(deps, params.Slug, { req, res }, 'read');
    const found = await listShopTimeslots(deps.pool, page.accountId, params.ActivityID, query.Date);
    if (!found) throw notFound('Activity');
    return { status: 200, body: found.timeslots.map((slot) => toShopTimeslot(slot, found.timeZone)), headers: { 'Cache-Control': 'no-cache' } };
  });
}
