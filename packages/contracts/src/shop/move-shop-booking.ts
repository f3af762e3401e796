// POST /api/v2/shop/:Slug/bookings/:Token/move: the customer moves the booking to another timeslot of the same
// activity, by the same rule as a partner's change: it fits or nothing changes.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { bookingRequestSchema } from '../partner/create-booking.js';
import { notFoundToken, shopBookingSchema, shopRateLimited, shopTags, shopTokenParams } from './shared.schemas.js';

const { Date, Time } = bookingRequestSchema.properties;

export const moveShopBookingRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Date', 'Time'],
  properties: { Date, Time },
} as const;
export type MoveShopBookingRequest = FromSchema<typeof moveShopBookingRequestSchema>;

export const moveShopBookingOperation = {
  operationId: 'moveShopBooking',
  method: 'post',
  path: '/api/v2/shop/:Slug/bookings/:Token/move',
  summary: 'Move the booking to another timeslot (manage link)',
  description:
    "Public (no API key). Moves the booking, its party unchanged, to another timeslot of its activity, in one transaction: when it does not fit, nothing changes (409). Allowed until the activity's cutoff.",
  tags: shopTags,
  auth: 'public',
  params: shopTokenParams,
  body: moveShopBookingRequestSchema,
  responses: {
    200: { description: 'Moved.', schema: shopBookingSchema },
    400: { description: 'Slug or Token malformed.' },
    404: notFoundToken,
    409: {
      description:
        '`/insufficient-capacity`: the timeslot has not enough places (Available says how many); `/timeslot-unavailable`: no such timeslot, closed or started; `/change-window-closed`: past the cutoff; `/invalid-transition`: cancelled or expired.',
    },
    422: { description: 'Invalid body.' },
    429: shopRateLimited,
  },
} as const satisfies Operation;
