// POST /api/v2/operator/bookings/:Reference/check-in: the party arrived (or some of it).
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { bookingChangeAnswers, operatorBookingParams } from './get-operator-booking.js';
import { operatorTags } from './shared.schemas.js';

export const checkInSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    Participants: { type: 'integer', minimum: 1, maximum: 1000, description: 'How many of the party arrived; the whole party when left out.' },
  },
} as const;
export type CheckIn = FromSchema<typeof checkInSchema>;

export const checkInOperatorBookingOperation = {
  operationId: 'checkInOperatorBooking',
  method: 'post',
  path: '/api/v2/operator/bookings/:Reference/check-in',
  summary: 'Check a booking in',
  description:
    'Records CheckedInAt on a live booking, for the whole party or, with Participants, for that many of it (3 of 4 arrived); a repeat keeps the first time and ' +
    'changes only the count (another arrives later). Recorded in the history, not sent to partners.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  params: operatorBookingParams,
  body: checkInSchema,
  // Sent without a body (as before Participants existed), the whole party checks in.
  bodyOptional: true,
  responses: {
    ...bookingChangeAnswers,
    409: { description: '`/invalid-transition`: the booking is cancelled or expired.' },
    422: { description: "Participants more than the party's." },
  },
} as const satisfies Operation;
