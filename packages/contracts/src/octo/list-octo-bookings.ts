// GET /octo/bookings: the reseller's bookings by resellerReference, supplierReference or local date range.
import type { FromSchema } from 'json-schema-to-ts';
import { textSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { octoBookingSchema } from './octo-booking.schemas.js';
import { octoErrorResponses, octoLocalDate, octoTags } from './octo.schemas.js';

export const octoBookingListQuery = {
  type: 'object',
  properties: {
    resellerReference: textSchema(200),
    supplierReference: textSchema(200),
    localDate: octoLocalDate,
    localDateStart: octoLocalDate,
    localDateEnd: octoLocalDate,
    productId: { type: 'string', maxLength: 200 },
    optionId: { type: 'string', maxLength: 200 },
  },
} as const;
export type OctoBookingListQuery = FromSchema<typeof octoBookingListQuery>;

export const listOctoBookingsOperation = {
  operationId: 'listOctoBookings',
  method: 'get',
  path: '/octo/bookings',
  summary: 'OCTO: list bookings',
  description: 'At least one of resellerReference, supplierReference, localDate or localDateStart + localDateEnd; else BAD_REQUEST.',
  tags: octoTags,
  scope: 'ota',
  query: octoBookingListQuery,
  queryErrorStatus: 400,
  responses: { 200: { description: 'The bookings (at most 500).', schema: { type: 'array', items: octoBookingSchema } }, ...octoErrorResponses },
} as const satisfies Operation;
