// GET /api/v2/ota/partner/bookings: the partner's bookings changed since an instant, in the order of their changes,
// keyset-paged. A pass that pages through while bookings are written misses none and gets none twice.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { bookingDetailsSchema } from './get-booking.js';
import { partnerTags } from './shared.schemas.js';

export const syncBookingsQuerySchema = {
  type: 'object',
  properties: {
    UpdatedSince: {
      type: 'string',
      format: 'date-time',
      'x-message': 'must be an ISO 8601 instant with its offset, such as 2027-05-01T09:00:00Z.',
      description: 'Bookings changed at or after this instant (default: all). Ignored with Cursor, which carries it.',
    },
    Limit: { type: 'integer', minimum: 1, maximum: 500, description: 'Bookings per page, 1 to 500 (default 100).' },
    Cursor: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$', 'x-message': 'must be a Next or Resume value of an earlier answer.' },
  },
} as const;
export type SyncBookingsQuery = FromSchema<typeof syncBookingsQuerySchema>;

export const bookingChangesSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Bookings', 'Next', 'Resume'],
  properties: {
    Bookings: { type: 'array', items: bookingDetailsSchema, description: 'In the order of their last change; a booking appears at its latest state.' },
    Next: { type: ['string', 'null'], description: 'Cursor of the next page; null when this page is the last for now.' },
    Resume: { type: 'string', description: 'Cursor to come back with later: the next pass starts right after this page, missing nothing.' },
  },
} as const;
export type BookingChanges = FromSchema<typeof bookingChangesSchema>;

export const syncBookingsOperation = {
  operationId: 'syncBookings',
  method: 'get',
  path: '/api/v2/ota/partner/bookings',
  summary: 'Bookings changed since an instant',
  description:
    "The caller's partner's bookings whose last change was at or after UpdatedSince, ordered by change, Limit per page. Follow Next until it is null; " +
    'keep Resume to continue later. A change still being committed is served on a later page, never behind one already served.',
  tags: partnerTags,
  scope: 'ota',
  query: syncBookingsQuerySchema,
  responses: {
    200: { description: 'One page of changes.', schema: bookingChangesSchema },
    422: { description: 'UpdatedSince not an instant, Limit outside 1..500, or a Cursor this API did not give.' },
  },
} as const satisfies Operation;
