// GET /api/v2/operator/bookings.csv: the filtered bookings as CSV, written batch by batch as PostgreSQL writes them
// (streamOperatorBookingsCsv), with backpressure: the process never holds more than one batch, whatever the export's size.
import { once } from 'node:events';
import { BOOKING_CSV_COLUMNS, exportOperatorBookingsOperation } from '@backbone/contracts';
import { streamOperatorBookingsCsv } from '@backbone/db';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { OperatorAppDeps } from '../deps.js';

export function mountExportOperatorBookings(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, exportOperatorBookingsOperation, async ({ query, auth, res }) => {
    const batches = streamOperatorBookingsCsv(deps.pool, auth.accountId, query);
    // The first batch is read before the headers go out, so that a failing query still answers with a problem.
    let batch = await batches.next();
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/csv; charset=utf-8; header=present');
    res.setHeader('Content-Disposition', 'attachment; filename="bookings.csv"');
    res.setHeader('Cache-Control', 'no-store');
    res.write(`${BOOKING_CSV_COLUMNS.join(',')}\r\n`);
    while (!batch.done) {
      if (!res.write(batch.value)) await once(res, 'drain');
      batch = await batches.next();
    }
    res.end();
    return { status: 200, body: undefined };
  });
}
