// DELETE /api/v2/shop/:Slug/holds/:Token: the customer gives up the hold (closed the form, chose another time): its
// places are free again at once instead of at its expiry.
import type { Operation } from '../operation.js';
import { notFoundToken, shopRateLimited, shopTags, shopTokenParams } from './shared.schemas.js';

export const releaseShopHoldOperation = {
  operationId: 'releaseShopHold',
  method: 'delete',
  path: '/api/v2/shop/:Slug/holds/:Token',
  summary: 'Release a hold',
  description: 'Public (no API key). Frees the places of a live hold. Releasing a hold already released or expired answers 204 too.',
  tags: shopTags,
  auth: 'public',
  params: shopTokenParams,
  responses: {
    204: { description: 'Released (or no longer held).' },
    400: { description: 'Slug or Token malformed.' },
    404: notFoundToken,
    409: { description: '`/invalid-transition`: the booking is already confirmed (cancel it at the manage link instead).' },
    429: shopRateLimited,
  },
} as const satisfies Operation;
