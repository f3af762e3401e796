// GET /api/v2/shop/:Slug/waitlist-offers/:Token: the offer a claim link opens (getShopWaitlistOffer).
import { getShopWaitlistOfferOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { getShopWaitlistOffer } from '@backbone/use-cases';
import type { ShopAppDeps } from '../../deps.js';
import { PRIVATE, shopCallerOf } from './shop-caller.js';

export function mountGetShopWaitlistOffer(routes: OperationRoutes, deps: ShopAppDeps): void {
  mountOperation(routes, deps, getShopWaitlistOfferOperation, async ({ params, req, res }) => {
    const caller = await shopCallerOf(deps, params.Slug, { req, res }, 'read');
    return { status: 200, body: await getShopWaitlistOffer(deps, caller, params.Token), headers: PRIVATE };
  });
}
