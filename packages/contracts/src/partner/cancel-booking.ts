// POST /api/v2/ota/partner/booking/{Reference}/cancel: cancel one of the partner's bookings; its places are released
// and booking.cancelled leaves through the outbox, together. Cancelling again changes nothing.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { bookingDetailsSchema, bookingReferenceParams, notFoundBooking } from './get-booking.js';
import { partnerTags, visibleText } from './shared.schemas.js';

export const cancelBookingRequestSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { Reason: { ...visibleText(500), description: 'Why the booking is cancelled, shown to the operator.' } },
} as const;
export type CancelBookingRequest = FromSchema<typeof cancelBookingRequestSchema>;

export const cancelBookingOperation = {
  operationId: 'cancelBooking',
  method: 'post',
  path: '/api/v2/ota/partner/booking/:Reference/cancel',
  summary: 'Cancel a booking',
  description:
    "Cancels a confirmed booking or a hold, until the activity's cancellation cutoff before the start (default: until the start). " +
    'Cancelling a cancelled booking answers 200 with the booking and changes nothing. The body is optional.',
  tags: partnerTags,
  scope: 'ota',
  params: bookingReferenceParams,
  body: cancelBookingRequestSchema,
  bodyOptional: true,
  idempotent: true,
  responses: {
    200: { description: 'The cancelled booking.', schema: bookingDetailsSchema },
    400: { description: 'Reference is not a booking reference.' },
    404: notFoundBooking,
    409: { description: '`/cancellation-window-closed`: past the cutoff or started; `/invalid-transition`: the hold had expired.' },
    422: { description: 'Invalid Reason, or an Idempotency-Key reused with another body.' },
  },
} as const satisfies Operation;
