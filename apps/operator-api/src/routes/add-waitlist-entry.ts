// POST /api/v2/operator/timeslots/:TimeslotID/waitlist: staff add a caller (addWaitlistEntry); again answers the entry.
import { addWaitlistEntryOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { addWaitlistEntry } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountAddWaitlistEntry(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, addWaitlistEntryOperation, async ({ params, body, auth }) => {
    const { entry, created } = await addWaitlistEntry(deps, { accountId: auth.accountId, timeslotId: params.TimeslotID, entry: body });
    return { status: created ? 201 : 200, body: entry };
  });
}
