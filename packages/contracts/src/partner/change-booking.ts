// PATCH /api/v2/ota/partner/booking/{Reference}: change one of the partner's live bookings: move it to another
// timeslot of its activity, change the party size, the customer or the answers. It fits or nothing changes;
// booking.updated leaves through the outbox with the change.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { answerSchema, bookingRequestSchema, customerDetailsSchema } from './create-booking.js';
import { bookingDetailsSchema, bookingReferenceParams, notFoundBooking } from './get-booking.js';
import { partnerTags } from './shared.schemas.js';

const { Date, Time, Participants } = bookingRequestSchema.properties;

export const changeBookingRequestSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  dependencies: { Date: ['Time'], Time: ['Date'] },
  properties: {
    Date: { ...Date, description: 'With Time: move the booking to this timeslot of its activity.' },
    Time: { ...Time, description: 'With Date: move the booking to this timeslot of its activity.' },
    Participants: { ...Participants, description: "The new party size, from 1 to the activity's MaxParticipants." },
    Customer: { ...customerDetailsSchema, description: 'The members sent replace the stored ones; the others stay.' },
    Answers: {
      type: 'array',
      maxItems: 1000,
      items: answerSchema,
      description: 'Waiver answers, checked as for the create against the new party size; they replace the stored ones.',
    },
  },
} as const;
export type ChangeBookingRequest = FromSchema<typeof changeBookingRequestSchema>;

export const changeBookingOperation = {
  operationId: 'changeBooking',
  method: 'patch',
  path: '/api/v2/ota/partner/booking/:Reference',
  summary: 'Change a booking',
  description:
    'Moves a live booking (on_hold or confirmed) to another timeslot of its activity, and/or changes its Participants, Customer or Answers, ' +
    'in one transaction with the same capacity rule as a create: when the new timeslot or the larger party does not fit, nothing changes (409). ' +
    "Allowed until the activity's cancellation cutoff (409 /change-window-closed after it). A hold stays a hold with the same ExpiresAt. " +
    'The booking keeps the unit price it was sold at; its total follows the party. A request that changes nothing answers the booking as it is. ' +
    'Each change sends booking.updated (what changed and the previous timeslot) to webhooks and appears in sync.',
  tags: partnerTags,
  scope: 'ota',
  params: bookingReferenceParams,
  body: changeBookingRequestSchema,
  idempotent: true,
  responses: {
    200: { description: 'The booking as changed.', schema: bookingDetailsSchema },
    400: { description: 'Reference is not a booking reference.' },
    404: notFoundBooking,
    409: {
      description:
        '`/insufficient-capacity`: the new timeslot or the larger party does not fit (Available says what is left); `/timeslot-unavailable`: no such timeslot, or it is closed or started; ' +
        '`/change-window-closed`: past the cutoff; `/invalid-transition`: the booking is cancelled or expired.',
    },
    422: { description: 'Invalid body (Date without Time, nothing to change, unknown members), Participants over the maximum, invalid answers.' },
  },
} as const satisfies Operation;
