// POST /octo/bookings/{uuid}/cancel: cancel a hold or a confirmed booking (until the activity's cutoff).
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { octoBookingSchema, octoBookingUuidParams } from './octo-booking.schemas.js';
import { octoErrorResponses, octoTags, octoTextOrNull } from './octo.schemas.js';

export const octoCancellationRequest = {
  type: 'object',
  properties: { reason: octoTextOrNull(500), force: { type: 'boolean' } },
} as const;
export type OctoCancellationRequest = FromSchema<typeof octoCancellationRequest>;

export const cancelOctoBookingOperation = {
  operationId: 'cancelOctoBooking',
  method: 'post',
  path: '/octo/bookings/:uuid/cancel',
  summary: 'OCTO: booking cancellation',
  tags: octoTags,
  scope: 'ota',
  params: octoBookingUuidParams,
  body: octoCancellationRequest,
  bodyOptional: true,
  responses: { 200: { description: 'The booking, CANCELLED.', schema: octoBookingSchema }, ...octoErrorResponses },
} as const satisfies Operation;
