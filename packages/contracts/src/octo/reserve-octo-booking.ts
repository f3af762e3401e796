// POST /octo/bookings: reserve (ON_HOLD until utcExpiresAt) through the partner API's create-booking use case.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { octoBookingSchema, octoUnitItemsRequest } from './octo-booking.schemas.js';
import { octoContactRequest } from './octo-contact.schemas.js';
import { octoErrorResponses, octoTags, octoTextOrNull } from './octo.schemas.js';

export const octoReservationRequest = {
  type: 'object',
  // unitItems is required, but checked by the use case: OCTO answers its absence UNPROCESSABLE_ENTITY, not BAD_REQUEST.
  required: ['productId', 'optionId', 'availabilityId'],
  properties: {
    uuid: { type: 'string', maxLength: 36 },
    productId: { type: 'string', maxLength: 200 },
    optionId: { type: 'string', maxLength: 200 },
    availabilityId: { type: 'string', maxLength: 100 },
    unitItems: { ...octoUnitItemsRequest, description: 'Required, at least one (UNPROCESSABLE_ENTITY without).' },
    expirationMinutes: { type: 'integer', minimum: 1, maximum: 100000 },
    resellerReference: octoTextOrNull(200),
    notes: octoTextOrNull(2000),
    contact: octoContactRequest,
  },
} as const;
export type OctoReservationRequest = FromSchema<typeof octoReservationRequest>;

export const reserveOctoBookingOperation = {
  operationId: 'reserveOctoBooking',
  method: 'post',
  path: '/octo/bookings',
  summary: 'OCTO: booking reservation',
  description: 'Holds the places (ON_HOLD) for expirationMinutes (default 30, at most 60). A repeat with the same uuid and body answers the same booking.',
  tags: octoTags,
  scope: 'ota',
  body: octoReservationRequest,
  responses: { 200: { description: 'The booking, ON_HOLD.', schema: octoBookingSchema }, ...octoErrorResponses },
} as const satisfies Operation;
