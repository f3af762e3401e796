// GET /api/v2/operator/bookings.csv: the filtered list as CSV (RFC 4180, UTF-8, header row), streamed row by row.
import type { Operation } from '../operation.js';
import { bookingFilterProperties } from './list-operator-bookings.js';
import { operatorTags } from './shared.schemas.js';

/** The CSV's columns, in order. */
export const BOOKING_CSV_COLUMNS = [
  'Reference',
  'Status',
  'Channel',
  'Partner',
  'Activity',
  'Date',
  'Time',
  'Participants',
  'FirstName',
  'LastName',
  'Email',
  'Phone',
  'PaymentReference',
  'CreatedAt',
  'UnitPriceMinor',
  'Currency',
  'TotalMinor',
  'Answers',
  'CancellationReason',
] as const;

export const exportOperatorBookingsOperation = {
  operationId: 'exportOperatorBookings',
  method: 'get',
  path: '/api/v2/operator/bookings.csv',
  summary: 'Export the bookings as CSV',
  description:
    "The same filters as the list, newest booked first (the list's default order; it takes no Sort), every row, after a UTF-8 byte order mark; named for the range. A cell that begins with =, +, - or @ is prefixed with ' so that spreadsheets do not run it, except a phone number in the Phone column.",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  query: { type: 'object', additionalProperties: false, properties: bookingFilterProperties },
  responses: { 200: { description: 'text/csv; header=present, one row per booking.' }, 422: { description: 'An invalid filter.' } },
} as const satisfies Operation;
