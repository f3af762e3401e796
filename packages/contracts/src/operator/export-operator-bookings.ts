// GET /api/v2/operator/bookings.csv: the filtered list as CSV (RFC 4180, UTF-8, header row), streamed row by row.
import type { Operation } from '../operation.js';
import { bookingFilterProperties } from './list-operator-bookings.js';
import { operatorTags } from './shared.schemas.js';

/**
 * The CSV's columns, in order. Those after CancellationReason came later and are only ever added at the end (scripts
 * read columns by position): the total in the currency's major units ("135.00"), the operator's note, and the booking
 * and check-in times in the activity's time zone ("2026-05-01 14:05"), like Date and Time.
 */
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
  'Total',
  'Note',
  'BookedAt',
  'CheckedInAt',
] as const;

export const exportOperatorBookingsOperation = {
  operationId: 'exportOperatorBookings',
  method: 'get',
  path: '/api/v2/operator/bookings.csv',
  summary: 'Export the bookings as CSV',
  description:
    "The same filters as the list, newest booked first (the list's default order; it takes no Sort), every row, after a UTF-8 byte order mark; named for the range. A cell that begins with =, +, - or @ is prefixed with ' so that spreadsheets do not run it, except a phone number in the Phone column. " +
    "Answers name an uploaded file by its file name. Total is in the currency's major units; BookedAt and CheckedInAt are local times of the activity's zone, like Date and Time.",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  query: { type: 'object', additionalProperties: false, properties: bookingFilterProperties },
  responses: { 200: { description: 'text/csv; header=present, one row per booking.' }, 422: { description: 'An invalid filter.' } },
} as const satisfies Operation;
