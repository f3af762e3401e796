// POST /api/v2/operator/waitlist/:WaitlistID/book: book an entry by hand (bookWaitlistEntry).
import { bookWaitlistEntryOperation } from '@backbone/contracts';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { bookWaitlistEntry } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountBookWaitlistEntry(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, bookWaitlistEntryOperation, async ({ params, auth }) => ({
    status: 200,
    body: await bookWaitlistEntry(deps, { accountId: auth.accountId, waitlistId: params.WaitlistID, actor: operatorActorOf(auth) }),
  }));
}
