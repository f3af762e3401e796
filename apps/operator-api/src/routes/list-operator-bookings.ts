// GET /api/v2/operator/bookings: one keyset page of the account's bookings of every channel, newest first or in slot
// order. The console polls the first page; with an ETag and `no-cache` the browser revalidates each poll, and an
// unchanged page costs a bodiless 304.
import { listOperatorBookingsOperation } from '@backbone/contracts';
import { listOperatorBookings, listOperatorBookingsBySlot } from '@backbone/db';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { OperatorAppDeps } from '../deps.js';
import { decodeCursor, decodeSlotCursor, encodeCursor, encodeSlotCursor } from '../cursor.js';

const CACHING = { 'Cache-Control': 'private, no-cache', Vary: 'Cookie, Authorization' };

export function mountListOperatorBookings(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(
    routes,
    deps,
    listOperatorBookingsOperation,
    async ({ query, auth }) => {
      const { Limit, Cursor, Sort, ...filters } = query;
      const limit = Limit ?? 50;
      if (Sort === 'starts_at') {
        const page = await listOperatorBookingsBySlot(deps.pool, auth.accountId, filters, { limit, after: decodeSlotCursor(Cursor) });
        return { status: 200, body: { Bookings: page.bookings, Next: page.next && encodeSlotCursor(page.next) }, headers: CACHING };
      }
      const page = await listOperatorBookings(deps.pool, auth.accountId, filters, { limit, below: decodeCursor(Cursor) });
      return { status: 200, body: { Bookings: page.bookings, Next: page.next === null ? null : encodeCursor(page.next) }, headers: CACHING };
    },
    { etag: true },
  );
}
