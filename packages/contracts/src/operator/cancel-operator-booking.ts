// POST /api/v2/operator/bookings/:Reference/cancel: the operator cancels a booking at any time (no partner cutoff).
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { visibleText } from '../partner/shared.schemas.js';
import { bookingChangeAnswers, operatorBookingParams } from './get-operator-booking.js';
import { operatorTags } from './shared.schemas.js';

export const operatorCancelRequestSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { Reason: { ...visibleText(500), description: 'Why, kept with the booking and in its history.' } },
} as const;
export type OperatorCancelRequest = FromSchema<typeof operatorCancelRequestSchema>;

export const cancelOperatorBookingOperation = {
  operationId: 'cancelOperatorBooking',
  method: 'post',
  path: '/api/v2/operator/bookings/:Reference/cancel',
  summary: 'Cancel a booking',
  description:
    'Cancels a live booking and frees its places, whatever the cutoff; booking.cancelled leaves through the outbox. ' +
    'Cancelling a cancelled booking answers it unchanged (200); an expired hold cannot be cancelled (409).',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  params: operatorBookingParams,
  body: operatorCancelRequestSchema,
  bodyOptional: true,
  idempotent: true,
  responses: {
    ...bookingChangeAnswers,
    409: { description: '`/invalid-transition`: the hold had expired.' },
    422: { description: 'Invalid Reason, or an Idempotency-Key reused with another body.' },
  },
} as const satisfies Operation;
