// GET /api/v2/shop/:Slug/bookings/:Token: the manage link's booking, that one alone.
import type { Operation } from '../operation.js';
import { notFoundToken, shopBookingSchema, shopRateLimited, shopTags, shopTokenParams } from './shared.schemas.js';

export const getShopBookingOperation = {
  operationId: 'getShopBooking',
  method: 'get',
  path: '/api/v2/shop/:Slug/bookings/:Token',
  summary: 'The booking a manage token opens',
  description: 'Public (no API key): the token is the key. Answers that booking only, with no partner, payment or staff details.',
  tags: shopTags,
  auth: 'public',
  params: shopTokenParams,
  responses: {
    200: { description: 'The booking.', schema: shopBookingSchema },
    400: { description: 'Slug or Token malformed.' },
    404: notFoundToken,
    429: shopRateLimited,
  },
} as const satisfies Operation;
