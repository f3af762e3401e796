// GET /api/v2/shop/:Slug/activities/:ActivityID/dates?Month=YYYY-MM: the dates of a month with free places.
import { listShopDatesOperation } from '@backbone/contracts';
import { listAvailableDates } from '@backbone/db';
import { monthDates, notFound, toAvailableDate } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { ShopAppDeps } from '../../deps.js';
import { shopCallerOf } from './shop-caller.js';

export function mountListShopDates(routes: OperationRoutes, deps: ShopAppDeps): void {
  mountOperation(routes, deps, listShopDatesOperation, async ({ params, query, req, res }) => {
    const { page } = await shopCallerOf(deps, params.Slug, { req, res }, 'read');
    const { first, last } = monthDates(query.Month);
    const dates = await listAvailableDates(deps.pool, page.accountId, params.ActivityID, first, last);
    if (!dates) throw notFound('Activity');
    return { status: 200, body: dates.map(toAvailableDate), headers: { 'Cache-Control': 'no-cache' } };
  });
}
