// GET /api/v2/operator/bookings/:Reference: one booking with its waiver answers.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { bookingAnswerSchema, operatorBookingSchema } from './list-operator-bookings.js';
import { operatorTags } from './shared.schemas.js';

export const bookingDetailSchema = {
  ...operatorBookingSchema,
  required: [...operatorBookingSchema.required, 'Answers'],
  properties: { ...operatorBookingSchema.properties, Answers: { type: 'array', items: bookingAnswerSchema } },
} as const;
export type BookingDetail = FromSchema<typeof bookingDetailSchema>;

/** The path of one booking: its reference (400 when it is not one). */
export const operatorBookingParams = {
  type: 'object',
  required: ['Reference'],
  properties: { Reference: { type: 'string', pattern: '^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$' } },
} as const;

/** The answers every change of a booking shares. */
export const bookingChangeAnswers = {
  200: { description: 'The booking as it is now.', schema: bookingDetailSchema },
  400: { description: 'Reference is not a booking reference.' },
  404: { description: 'No such booking in this account.' },
} as const;

export const getOperatorBookingOperation = {
  operationId: 'getOperatorBooking',
  method: 'get',
  path: '/api/v2/operator/bookings/:Reference',
  summary: 'One booking with its answers',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  params: operatorBookingParams,
  responses: {
    200: { description: 'The booking.', schema: bookingDetailSchema },
    404: { description: 'No such booking in this account.' },
  },
} as const satisfies Operation;
