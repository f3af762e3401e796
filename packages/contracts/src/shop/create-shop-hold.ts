// POST /api/v2/shop/:Slug/holds: the places of a timeslot held while the customer fills in the form, as a partner's
// hold is (the same conditional capacity update: never oversold). The answer carries the booking's token, the
// customer's only key to it from then on.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { bookingRequestSchema } from '../partner/create-booking.js';
import { notFoundPage, shopBookingSchema, shopParams, shopRateLimited, shopTags, shopTokenSchema } from './shared.schemas.js';

const { ActivityID, Date, Time, Participants } = bookingRequestSchema.properties;

export const createShopHoldRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ActivityID', 'Date', 'Time', 'Participants'],
  properties: { ActivityID, Date, Time, Participants: { ...Participants, description: "From the activity's MinParticipants to its MaxParticipants." } },
} as const;
export type CreateShopHoldRequest = FromSchema<typeof createShopHoldRequestSchema>;

export const shopHoldSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Token', 'Booking'],
  properties: {
    Token: {
      ...shopTokenSchema,
      description:
        'The secret that opens this booking alone (256 random bits, stored only hashed): confirm or release the hold with it, then manage the booking at {base}/book/{Slug}/manage/{Token}. Shown only here.',
    },
    Booking: { ...shopBookingSchema, description: 'The hold (Status on_hold), with ExpiresAt.' },
  },
} as const;
export type ShopHold = FromSchema<typeof shopHoldSchema>;

export const createShopHoldOperation = {
  operationId: 'createShopHold',
  method: 'post',
  path: '/api/v2/shop/:Slug/holds',
  summary: 'Hold places while the customer fills in the form',
  description:
    "Public (no API key). Holds Participants places of the timeslot for 10 minutes (the page's hold time): confirm within them (POST .../holds/{Token}/confirm) or they are released. " +
    'Capacity is never oversold, whatever the concurrency. An address may have at most 5 live holds (429 /too-many-holds).',
  tags: shopTags,
  auth: 'public',
  params: shopParams,
  body: createShopHoldRequestSchema,
  responses: {
    201: { description: 'Held.', schema: shopHoldSchema },
    400: { description: 'Slug malformed.' },
    404: notFoundPage,
    409: {
      description:
        '`/timeslot-unavailable`: no such timeslot, closed, started or past its booking cutoff; `/insufficient-capacity`: not enough places left (`Available` says how many).',
    },
    422: { description: "Invalid body, or Participants outside the activity's limits." },
    429: shopRateLimited,
  },
} as const satisfies Operation;
