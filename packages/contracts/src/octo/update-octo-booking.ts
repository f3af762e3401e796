// PATCH /octo/bookings/{uuid}: another availability, unit items, contact or notes, in one transaction.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { octoBookingSchema, octoBookingUuidParams, octoUnitItemsRequest } from './octo-booking.schemas.js';
import { octoContactRequest } from './octo-contact.schemas.js';
import { octoErrorResponses, octoTags, octoTextOrNull } from './octo.schemas.js';

export const octoUpdateRequest = {
  type: 'object',
  properties: {
    productId: { type: 'string', maxLength: 200 },
    optionId: { type: 'string', maxLength: 200 },
    availabilityId: { type: 'string', maxLength: 100 },
    unitItems: octoUnitItemsRequest,
    contact: octoContactRequest,
    notes: octoTextOrNull(2000),
    resellerReference: octoTextOrNull(200),
    expirationMinutes: { type: 'integer', minimum: 1, maximum: 100000 },
  },
} as const;
export type OctoUpdateRequest = FromSchema<typeof octoUpdateRequest>;

export const updateOctoBookingOperation = {
  operationId: 'updateOctoBooking',
  method: 'patch',
  path: '/octo/bookings/:uuid',
  summary: 'OCTO: booking update',
  description: 'Before or after confirmation. It fits, or nothing changes (UNPROCESSABLE_ENTITY).',
  tags: octoTags,
  scope: 'ota',
  params: octoBookingUuidParams,
  body: octoUpdateRequest,
  responses: { 200: { description: 'The booking.', schema: octoBookingSchema }, ...octoErrorResponses },
} as const satisfies Operation;
