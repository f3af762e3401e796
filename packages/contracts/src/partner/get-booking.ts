// GET /api/v2/ota/partner/booking/{Reference}: one of the partner's bookings as the create answered it, with its
// lifecycle (status, hold expiry, cancellation, last change).
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { bookingSchema } from './create-booking.js';
import { partnerTags } from './shared.schemas.js';

export const bookingReferenceParams = {
  type: 'object',
  required: ['Reference'],
  properties: {
    Reference: {
      type: 'string',
      pattern: '^[2-9A-HJ-NP-Za-hj-np-z]{4}-[2-9A-HJ-NP-Za-hj-np-z]{4}$',
      'x-message': 'must be a booking reference such as 7KQ4-X9MB.',
      description: 'The booking reference (any case).',
    },
  },
} as const;

const instantOrNull = { type: ['string', 'null'], format: 'date-time' } as const;

export const bookingDetailsSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...bookingSchema.required, 'ExpiresAt', 'CancelledAt', 'CancellationReason', 'UpdatedAt'],
  properties: {
    ...bookingSchema.properties,
    ExpiresAt: { ...instantOrNull, description: 'A hold: when its places are released unless it is confirmed. Null otherwise.' },
    CancelledAt: { ...instantOrNull, description: 'When it was cancelled; null unless cancelled.' },
    CancellationReason: { type: ['string', 'null'], description: 'The Reason given with the cancel, if any.' },
    UpdatedAt: { type: 'string', format: 'date-time', description: 'When the booking last changed (create, confirm, cancel, expiry), ISO 8601 in UTC.' },
  },
} as const;
export type BookingDetails = FromSchema<typeof bookingDetailsSchema>;

export const notFoundBooking = { description: "No booking with this reference made by the caller's partner." } as const;

export const getBookingOperation = {
  operationId: 'getBooking',
  method: 'get',
  path: '/api/v2/ota/partner/booking/:Reference',
  summary: 'Look a booking up',
  description:
    "A booking made by the caller's partner. A hold whose ExpiresAt has passed is shown as expired, whether or not it was marked yet. Another partner's booking is a 404.",
  tags: partnerTags,
  scope: 'ota',
  params: bookingReferenceParams,
  responses: {
    200: { description: 'The booking.', schema: bookingDetailsSchema },
    400: { description: 'Reference is not a booking reference.' },
    404: notFoundBooking,
  },
} as const satisfies Operation;
