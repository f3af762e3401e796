// POST /octo/bookings/{uuid}/extend: move an ON_HOLD booking's expiry.
import type { Operation } from '../operation.js';
import { octoBookingSchema, octoBookingUuidParams } from './octo-booking.schemas.js';
import { octoErrorResponses, octoTags } from './octo.schemas.js';

export const extendOctoBookingOperation = {
  operationId: 'extendOctoBooking',
  method: 'post',
  path: '/octo/bookings/:uuid/extend',
  summary: 'OCTO: extend a reservation',
  description: 'The hold now expires expirationMinutes (default 30, at most 60) from now.',
  tags: octoTags,
  scope: 'ota',
  params: octoBookingUuidParams,
  body: { type: 'object', properties: { expirationMinutes: { type: 'integer', minimum: 1, maximum: 100000 } } },
  bodyOptional: true,
  responses: { 200: { description: 'The booking, ON_HOLD.', schema: octoBookingSchema }, ...octoErrorResponses },
} as const satisfies Operation;
