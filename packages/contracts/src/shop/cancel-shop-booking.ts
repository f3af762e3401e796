// POST /api/v2/shop/:Slug/bookings/:Token/cancel: the customer cancels at the manage link, by the same rules and
// 409s as a partner's cancel; the history names the customer.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { textSchema } from '../common.schemas.js';
import { notFoundToken, shopBookingSchema, shopRateLimited, shopTags, shopTokenParams } from './shared.schemas.js';

export const cancelShopBookingRequestSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { Reason: { ...textSchema(500), description: 'Why, for the operator (optional).' } },
} as const;
export type CancelShopBookingRequest = FromSchema<typeof cancelShopBookingRequestSchema>;

export const cancelShopBookingOperation = {
  operationId: 'cancelShopBooking',
  method: 'post',
  path: '/api/v2/shop/:Slug/bookings/:Token/cancel',
  summary: 'Cancel the booking (manage link)',
  description:
    "Public (no API key). Cancels the booking until the activity's cutoff (ChangeableUntil); its places are free again. Cancelling a cancelled booking answers it as it is. The body may be left out.",
  tags: shopTags,
  auth: 'public',
  params: shopTokenParams,
  body: cancelShopBookingRequestSchema,
  bodyOptional: true,
  responses: {
    200: { description: 'Cancelled.', schema: shopBookingSchema },
    400: { description: 'Slug or Token malformed.' },
    404: notFoundToken,
    409: { description: '`/cancellation-window-closed`: past the cutoff (call the operator); `/invalid-transition`: the hold expired.' },
    422: { description: 'Invalid body.' },
    429: shopRateLimited,
  },
} as const satisfies Operation;
