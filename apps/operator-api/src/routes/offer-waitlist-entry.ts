// POST /api/v2/operator/waitlist/:WaitlistID/offer: offer free places to an entry by hand (offerWaitlistEntry).
import { offerWaitlistEntryOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { offerWaitlistEntry } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountOfferWaitlistEntry(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, offerWaitlistEntryOperation, async ({ params, auth }) => ({
    status: 200,
    body: await offerWaitlistEntry(deps, { accountId: auth.accountId, waitlistId: params.WaitlistID }),
  }));
}
