// POST /api/v2/shop/:Slug/waitlist-offers/:Token/claim: book the places a waitlist offer holds, with the form of an
// ordinary hold's confirm (customer, answers, terms).
import type { Operation } from '../operation.js';
import { confirmShopHoldRequestSchema } from './confirm-shop-hold.js';
import { notFoundOffer } from './get-shop-waitlist-offer.js';
import { shopBookingSchema, shopRateLimited, shopTags, shopTokenParams } from './shared.schemas.js';

export const claimShopWaitlistOfferOperation = {
  operationId: 'claimShopWaitlistOffer',
  method: 'post',
  path: '/api/v2/shop/:Slug/waitlist-offers/:Token/claim',
  summary: 'Claim a waitlist offer: book its held places',
  description:
    "Public (no API key). Confirms the offer's hold before it expires, exactly as Book confirms a hold (POST .../holds/{Token}/confirm): an online booking paid at the venue; the entry is then claimed. Claiming again answers the same booking. The token then opens the booking at the manage link.",
  tags: shopTags,
  auth: 'public',
  params: shopTokenParams,
  body: confirmShopHoldRequestSchema,
  responses: {
    200: { description: 'Booked (Status confirmed).', schema: shopBookingSchema },
    400: { description: 'Slug or Token malformed.' },
    404: notFoundOffer,
    409: { description: '`/hold-expired`: the offer expired and its places went on; `/invalid-transition`: it was withdrawn.' },
    422: { description: 'Invalid body: customer details missing or invalid, invalid or missing answers, terms not accepted, or the honeypot filled.' },
    429: shopRateLimited,
  },
} as const satisfies Operation;
