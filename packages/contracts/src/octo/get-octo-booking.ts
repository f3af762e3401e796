// GET /octo/bookings/{uuid}: one of the reseller's bookings; another reseller's is INVALID_BOOKING_UUID.
import type { Operation } from '../operation.js';
import { octoBookingSchema, octoBookingUuidParams } from './octo-booking.schemas.js';
import { octoErrorResponses, octoTags } from './octo.schemas.js';

export const getOctoBookingOperation = {
  operationId: 'getOctoBooking',
  method: 'get',
  path: '/octo/bookings/:uuid',
  summary: 'OCTO: get a booking',
  tags: octoTags,
  scope: 'ota',
  params: octoBookingUuidParams,
  responses: { 200: { description: 'The booking.', schema: octoBookingSchema }, ...octoErrorResponses },
} as const satisfies Operation;
