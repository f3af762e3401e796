// POST /api/v2/shop/:Slug/waitlist-offers/:Token/claim: book a waitlist offer's held places (claimShopWaitlistOffer).
import { claimShopWaitlistOfferOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { claimShopWaitlistOffer } from '@backbone/use-cases';
import type { ShopAppDeps } from '../../deps.js';
import { PRIVATE, shopCallerOf } from './shop-caller.js';

export function mountClaimShopWaitlistOffer(routes: OperationRoutes, deps: ShopAppDeps): void {
  mountOperation(routes, deps, claimShopWaitlistOfferOperation, async ({ params, body, req, res }) => {
    const caller = await shopCallerOf(deps, params.Slug, { req, res }, 'hold');
    return { status: 200, body: await claimShopWaitlistOffer(deps, caller, params.Token, body), headers: PRIVATE };
  });
}
