// GET /api/v2/operator/bookings: one keyset page of the account's bookings of every channel.
import { listOperatorBookingsOperation } from '@backbone/contracts';
import { listOperatorBookings } from '@backbone/db';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { OperatorAppDeps } from '../deps.js';
import { decodeCursor, encodeCursor } from '../cursor.js';

export function mountListBookings(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, listOperatorBookingsOperation, async ({ query, auth }) => {
    const { Limit, Cursor, ...filters } = query;
    const page = await listOperatorBookings(deps.pool, auth.accountId, filters, { limit: Limit ?? 50, below: decodeCursor(Cursor) });
    return { status: 200, body: { Bookings: page.bookings, Next: page.next === null ? null : encodeCursor(page.next) }, headers: { 'Cache-Control': 'no-store' } };
  });
}
