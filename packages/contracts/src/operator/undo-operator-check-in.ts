// DELETE /api/v2/operator/bookings/:Reference/check-in: undo a check-in made by mistake.
import type { Operation } from '../operation.js';
import { bookingChangeAnswers, operatorBookingParams } from './get-operator-booking.js';
import { operatorTags } from './shared.schemas.js';

export const undoOperatorCheckInOperation = {
  operationId: 'undoOperatorCheckIn',
  method: 'delete',
  path: '/api/v2/operator/bookings/:Reference/check-in',
  summary: 'Undo a check-in',
  description: 'Clears CheckedInAt (of a booking in any status); a booking not checked in answers unchanged. Recorded in the history.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  params: operatorBookingParams,
  responses: bookingChangeAnswers,
} as const satisfies Operation;
