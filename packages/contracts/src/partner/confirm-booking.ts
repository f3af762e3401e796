// POST /api/v2/ota/partner/booking/{Reference}/confirm: confirm a hold before it expires, completing the customer's
// details and answers; booking.confirmed leaves through the outbox with it. Confirming again changes nothing.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { answerSchema, bookingRequestSchema, customerDetailsSchema } from './create-booking.js';
import { bookingDetailsSchema, bookingReferenceParams, notFoundBooking } from './get-booking.js';
import { partnerTags } from './shared.schemas.js';

const { ActivityID, Date, Time, Participants, PaymentReference } = bookingRequestSchema.properties;

export const confirmBookingRequestSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    Customer: { ...customerDetailsSchema, description: "Completes the hold's customer: FirstName, LastName and Email must be present in the hold or here." },
    PaymentReference,
    Answers: { type: 'array', maxItems: 1000, items: answerSchema, description: "Waiver answers, checked as for the create; they replace the hold's." },
    ActivityID: { ...ActivityID, description: "Optional; when sent, must be the hold's." },
    Date: { ...Date, description: "Optional; when sent, must be the hold's." },
    Time: { ...Time, description: "Optional; when sent, must be the hold's." },
    Participants: { ...Participants, description: "Optional; when sent, must be the hold's." },
  },
} as const;
export type ConfirmBookingRequest = FromSchema<typeof confirmBookingRequestSchema>;

export const confirmBookingOperation = {
  operationId: 'confirmBooking',
  method: 'post',
  path: '/api/v2/ota/partner/booking/:Reference/confirm',
  summary: 'Confirm a hold',
  description:
    'Turns an on_hold booking into a confirmed one before its ExpiresAt, with the members of the create, all optional here. ' +
    'Confirming a confirmed booking answers 200 with the booking and changes nothing.',
  tags: partnerTags,
  scope: 'ota',
  params: bookingReferenceParams,
  body: confirmBookingRequestSchema,
  bodyOptional: true,
  idempotent: true,
  responses: {
    200: { description: 'The confirmed booking.', schema: bookingDetailsSchema },
    400: { description: 'Reference is not a booking reference.' },
    404: notFoundBooking,
    409: { description: '`/hold-expired`: the hold expired before the confirm; `/invalid-transition`: the booking was cancelled.' },
    422: { description: "Invalid body, a required customer member neither in the hold nor here, a member that differs from the hold's, invalid answers." },
  },
} as const satisfies Operation;
