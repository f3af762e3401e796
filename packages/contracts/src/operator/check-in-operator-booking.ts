// POST /api/v2/operator/bookings/:Reference/check-in: the party arrived.
import type { Operation } from '../operation.js';
import { bookingChangeAnswers, operatorBookingParams } from './get-operator-booking.js';
import { operatorTags } from './shared.schemas.js';

export const checkInOperatorBookingOperation = {
  operationId: 'checkInOperatorBooking',
  method: 'post',
  path: '/api/v2/operator/bookings/:Reference/check-in',
  summary: 'Check a booking in',
  description: 'Records CheckedInAt on a live booking; a repeat keeps the first time. Recorded in the history, not sent to partners.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  params: operatorBookingParams,
  responses: { ...bookingChangeAnswers, 409: { description: '`/invalid-transition`: the booking is cancelled or expired.' } },
} as const satisfies Operation;
