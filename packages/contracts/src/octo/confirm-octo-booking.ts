// POST /octo/bookings/{uuid}/confirm: confirm a hold with the contact (and optionally new unit items).
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { octoBookingSchema, octoBookingUuidParams, octoUnitItemsRequest } from './octo-booking.schemas.js';
import { octoContactRequest } from './octo-contact.schemas.js';
import { octoErrorResponses, octoTags, octoTextOrNull } from './octo.schemas.js';

export const octoConfirmationRequest = {
  type: 'object',
  required: ['contact'],
  properties: {
    contact: octoContactRequest,
    resellerReference: octoTextOrNull(200),
    unitItems: octoUnitItemsRequest,
    notes: octoTextOrNull(2000),
    emailReceipt: { type: 'boolean' },
  },
} as const;
export type OctoConfirmationRequest = FromSchema<typeof octoConfirmationRequest>;

export const confirmOctoBookingOperation = {
  operationId: 'confirmOctoBooking',
  method: 'post',
  path: '/octo/bookings/:uuid/confirm',
  summary: 'OCTO: booking confirmation',
  tags: octoTags,
  scope: 'ota',
  params: octoBookingUuidParams,
  body: octoConfirmationRequest,
  responses: { 200: { description: 'The booking, CONFIRMED, with a ticket per unit item.', schema: octoBookingSchema }, ...octoErrorResponses },
} as const satisfies Operation;
