// PATCH /api/v2/operator/bookings/:Reference: change the party size, the customer, the waiver answers or the operator's note.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { answerSchema, customerDetailsSchema } from '../partner/create-booking.js';
import { priceOverrideSchema } from './create-sale.js';
import { bookingChangeAnswers, operatorBookingParams } from './get-operator-booking.js';
import { operatorTags } from './shared.schemas.js';

export const operatorBookingChangeSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    Participants: { type: 'integer', minimum: 1, maximum: 1000, description: "The new party size, at most the activity's MaxParticipants." },
    Customer: {
      ...customerDetailsSchema,
      properties: {
        ...customerDetailsSchema.properties,
        Phone: { ...customerDetailsSchema.properties.Phone, type: ['string', 'null'], description: 'null removes the phone number.' },
      },
      description: 'The members sent replace the stored ones; the others stay. Phone null removes the phone number.',
    },
    Answers: {
      type: 'array',
      maxItems: 1000,
      items: answerSchema,
      description:
        'Replace the waiver answers (the desk completes a waiver): every required question answered, per participant where it asks so; a file the booking already has is kept by sending its FileID.',
    },
    Note: {
      type: ['string', 'null'],
      maxLength: 2000,
      pattern: '^[^\\u0000\\ud800-\\udfff]*$',
      description: "The operator's note (at most 2000 characters); null or an empty string removes it.",
    },
    PriceOverride: {
      ...priceOverrideSchema,
      type: ['object', 'null'],
      description:
        "The total charged for the party (after the change) with the reason, when it is not the unit price as sold times the party; null goes back to the list price. A change of the party without it drops a price set by hand: the booking then costs the list price again. Not for a partner's booking (it keeps the price the partner sold it at).",
    },
  },
} as const;
export type OperatorBookingChange = FromSchema<typeof operatorBookingChangeSchema>;

export const changeOperatorBookingOperation = {
  operationId: 'changeOperatorBooking',
  method: 'patch',
  path: '/api/v2/operator/bookings/:Reference',
  summary: 'Change the party, customer, answers, note or price of a booking',
  description:
    'More participants only when the timeslot has room (409 otherwise, nothing changes); fewer free places at once. ' +
    'Not bound by the partner cutoff. Each change (the note too) sends booking.updated; a request that changes nothing answers the booking as it is.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  params: operatorBookingParams,
  body: operatorBookingChangeSchema,
  idempotent: true,
  responses: {
    ...bookingChangeAnswers,
    409: {
      description:
        '`/insufficient-capacity`: the timeslot cannot take the larger party (`Available`); `/timeslot-unavailable`: a larger party in a closed or started timeslot; ' +
        '`/invalid-transition`: the booking is cancelled or expired.',
    },
    403: { description: '`/forbidden`: a PriceOverride the role may not set (staff may discount, only owners charge more than the list price).' },
    422: {
      description:
        "Invalid body (nothing to change, unknown members), Participants over the maximum, answers that do not answer the questions, a PriceOverride in another currency, without a reason, or on a partner's booking.",
    },
  },
} as const satisfies Operation;
