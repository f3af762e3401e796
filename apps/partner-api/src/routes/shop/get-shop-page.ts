// GET /api/v2/shop/:Slug: the booking page and its shopfront (hidden activities never).
import { getShopPageOperation } from '@backbone/contracts';
import { listOfferedActivities } from '@backbone/db';
import { toShopActivity } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { ShopAppDeps } from '../../deps.js';
import { shopCallerOf } from './shop-caller.js';

export function mountGetShopPage(routes: OperationRoutes, deps: ShopAppDeps): void {
  mountOperation(routes, deps, getShopPageOperation, async ({ params, req, res }) => {
    const { page } = await shopCallerOf(deps, params.Slug, { req, res }, 'read');
    const activities = (await listOfferedActivities(deps.pool, page.accountId, null)).map(toShopActivity);
    const body = {
      Slug: params.Slug,
      AccountName: page.accountName,
      Currency: activities[0]?.Price.Currency ?? null,
      Locale: page.locale,
      TimeZone: page.timeZone,
      Note: page.note,
      Terms: page.terms,
      PaymentMethod: 'pay_at_venue',
      Activities: activities,
    };
    return { status: 200, body, headers: { 'Cache-Control': 'public, max-age=30' } };
  });
}
