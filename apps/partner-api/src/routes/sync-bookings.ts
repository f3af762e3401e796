// GET /api/v2/ota/partner/bookings: the caller's partner's bookings changed since an instant, keyset-paged by change.
import { syncBookingsOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { syncBookings } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../deps.js';
import { partnerOf } from './partner-of.js';

export function mountSyncBookings(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, syncBookingsOperation, async ({ query, auth }) => ({
    status: 200,
    body: await syncBookings(deps, { ...partnerOf(auth), updatedSince: query.UpdatedSince, cursor: query.Cursor, limit: query.Limit }),
  }));
}
