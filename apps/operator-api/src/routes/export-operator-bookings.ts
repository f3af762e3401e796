// GET /api/v2/operator/bookings.csv: the filtered bookings as CSV, written batch by batch as PostgreSQL writes them
// (streamOperatorBookingsCsv), with backpressure: the process never holds more than one batch, whatever the export's size.
import { once } from 'node:events';
import { BOOKING_CSV_COLUMNS, exportOperatorBookingsOperation } from '@backbone/contracts';
import { streamOperatorBookingsCsv } from '@backbone/db';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { OperatorAppDeps } from '../deps.js';

/** bookings-2026-11-01-to-2026-11-30.csv: the range in the name, so that two exports do not overwrite each other. */
function csvFileName(range: { From?: string; To?: string }): string {
  if (range.From && range.To) return `bookings-${range.From}-to-${range.To}.csv`;
  if (range.From) return `bookings-from-${range.From}.csv`;
  if (range.To) return `bookings-to-${range.To}.csv`;
  return 'bookings.csv';
}

export function mountExportOperatorBookings(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, exportOperatorBookingsOperation, async ({ query, auth, res }) => {
    const batches = streamOperatorBookingsCsv(deps.pool, auth.accountId, query);
    // The first batch is read before the headers go out, so that a failing query still answers with a problem.
    let batch = await batches.next();
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/csv; charset=utf-8; header=present');
    res.setHeader('Content-Disposition', `attachment; filename="${csvFileName(query)}"`);
    res.setHeader('Cache-Control', 'no-store');
    // The byte order mark tells spreadsheet apps the file is UTF-8 (without it Excel reads João as JoÃ£o).
    res.write(`\uFEFF${BOOKING_CSV_COLUMNS.join(',')}\r\n`);
    while (!batch.done) {
      if (!res.write(batch.value)) await once(res, 'drain');
      batch = await batches.next();
    }
    res.end();
    return { status: 200, body: undefined };
  });
}
