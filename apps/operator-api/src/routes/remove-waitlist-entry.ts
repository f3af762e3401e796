// DELETE /api/v2/operator/waitlist/:WaitlistID: take an entry off the waitlist (removeWaitlistEntry).
import { removeWaitlistEntryOperation } from '@backbone/contracts';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { removeWaitlistEntry } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountRemoveWaitlistEntry(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, removeWaitlistEntryOperation, async ({ params, auth }) => ({
    status: 200,
    body: await removeWaitlistEntry(deps, { accountId: auth.accountId, waitlistId: params.WaitlistID, actor: operatorActorOf(auth) }),
  }));
}
