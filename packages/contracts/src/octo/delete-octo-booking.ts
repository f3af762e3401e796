// DELETE /octo/bookings/{uuid}: the same cancellation as POST .../cancel (OCTO allows both).
import type { Operation } from '../operation.js';
import { octoCancellationRequest } from './cancel-octo-booking.js';
import { octoBookingSchema, octoBookingUuidParams } from './octo-booking.schemas.js';
import { octoErrorResponses, octoTags } from './octo.schemas.js';

export const deleteOctoBookingOperation = {
  operationId: 'deleteOctoBooking',
  method: 'delete',
  path: '/octo/bookings/:uuid',
  summary: 'OCTO: booking cancellation (DELETE)',
  tags: octoTags,
  scope: 'ota',
  params: octoBookingUuidParams,
  body: octoCancellationRequest,
  bodyOptional: true,
  responses: { 200: { description: 'The booking, CANCELLED.', schema: octoBookingSchema }, ...octoErrorResponses },
} as const satisfies Operation;
