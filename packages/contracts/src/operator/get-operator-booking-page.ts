// GET /api/v2/operator/booking-page: the account's booking page settings and its address. Staff read it (to give
// customers the link); owners change it.
import type { Operation } from '../operation.js';
import { operatorBookingPageSchema } from './booking-page.schemas.js';
import { operatorTags } from './shared.schemas.js';

export const getOperatorBookingPageOperation = {
  operationId: 'getOperatorBookingPage',
  method: 'get',
  path: '/api/v2/operator/booking-page',
  summary: "The account's booking page settings",
  description: 'An account that never set its page answers it off, without a slug.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  responses: { 200: { description: 'The settings.', schema: operatorBookingPageSchema } },
} as const satisfies Operation;
