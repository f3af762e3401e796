// GET /api/v2/shop/:Slug/waitlist-offers/:Token: the offer an e-mail's claim link opens: the places held for the
// entry (a hold, with its expiry), to book with confirmShopHold's form.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { WAITLIST_STATES } from '../operator/waitlist.schemas.js';
import { shopBookingSchema, shopRateLimited, shopTags, shopTokenParams } from './shared.schemas.js';

export const shopWaitlistOfferSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['State', 'Booking'],
  properties: {
    State: {
      type: 'string',
      enum: WAITLIST_STATES,
      description: 'offered: the places are held until Booking.ExpiresAt; claimed: booked; expired or removed: the places went on to others.',
    },
    Booking: { ...shopBookingSchema, description: "The offer's hold (on_hold, with ExpiresAt and the entry's contact), or the booking it became." },
  },
} as const;
export type ShopWaitlistOffer = FromSchema<typeof shopWaitlistOfferSchema>;

export const notFoundOffer = { description: '`/not-found`: no waitlist offer of this page with this token.' } as const;

export const getShopWaitlistOfferOperation = {
  operationId: 'getShopWaitlistOffer',
  method: 'get',
  path: '/api/v2/shop/:Slug/waitlist-offers/:Token',
  summary: 'The waitlist offer a claim link opens',
  description: 'Public (no API key): the token of the offer e-mail is the key. Answers that offer only.',
  tags: shopTags,
  auth: 'public',
  params: shopTokenParams,
  responses: {
    200: { description: 'The offer.', schema: shopWaitlistOfferSchema },
    400: { description: 'Slug or Token malformed.' },
    404: notFoundOffer,
    429: shopRateLimited,
  },
} as const satisfies Operation;
