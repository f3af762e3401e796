// POST /api/v2/operator/bookings/:Reference/reschedule: move a booking to another timeslot, of its activity or another.
import type { FromSchema } from 'json-schema-to-ts';
import { calendarDateSchema, clockTimeSchema, uuidSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { bookingChangeAnswers, operatorBookingParams } from './get-operator-booking.js';
import { operatorTags } from './shared.schemas.js';

export const rescheduleRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Date', 'Time'],
  properties: {
    Date: calendarDateSchema,
    Time: clockTimeSchema,
    ActivityID: {
      ...uuidSchema,
      description:
        "Another activity of the account (active; shown in the shopfront or not) when the customer changed their mind: its waiver answers are dropped (they answered the other activity's questions) and the booking takes that activity's price.",
    },
  },
} as const;
export type RescheduleRequest = FromSchema<typeof rescheduleRequestSchema>;

export const rescheduleOperatorBookingOperation = {
  operationId: 'rescheduleOperatorBooking',
  method: 'post',
  path: '/api/v2/operator/bookings/:Reference/reschedule',
  summary: 'Move a booking to another timeslot',
  description:
    'Moves a live booking to the timeslot at Date and Time (local) of its activity, or of ActivityID, in one transaction: the old places freed, ' +
    'the new ones taken with the same rule as a create, or nothing changes. Not bound by the partner cutoff. ' +
    'booking.updated (with the previous timeslot) leaves through the outbox. Moving to its own timeslot answers it unchanged.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  params: operatorBookingParams,
  body: rescheduleRequestSchema,
  idempotent: true,
  responses: {
    ...bookingChangeAnswers,
    404: { description: 'No such booking, or the activity has no timeslot at Date and Time.' },
    409: {
      description:
        '`/insufficient-capacity`: the timeslot cannot take the party (`Available`); `/timeslot-unavailable`: it is closed or started; ' +
        '`/invalid-transition`: the booking is cancelled or expired.',
    },
    422: { description: "Invalid Date or Time; an ActivityID that is not the account's active activity; a party larger than its maximum." },
  },
} as const satisfies Operation;
