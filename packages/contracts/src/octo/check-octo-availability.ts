// POST /octo/availability: the bookable availabilities (timeslots) of a product by date range, one date, or ids.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { octoAvailabilitySchema, octoUnitsRequest } from './octo-availability.schemas.js';
import { octoErrorResponses, octoLocalDate, octoTags } from './octo.schemas.js';

export const octoAvailabilityRequest = {
  type: 'object',
  required: ['productId', 'optionId'],
  properties: {
    productId: { type: 'string', maxLength: 200 },
    optionId: { type: 'string', maxLength: 200 },
    localDateStart: octoLocalDate,
    localDateEnd: octoLocalDate,
    localDate: octoLocalDate,
    availabilityIds: { type: 'array', minItems: 1, maxItems: 500, items: { type: 'string', maxLength: 100 } },
    units: octoUnitsRequest,
  },
} as const;
export type OctoAvailabilityRequest = FromSchema<typeof octoAvailabilityRequest>;

export const checkOctoAvailabilityOperation = {
  operationId: 'checkOctoAvailability',
  method: 'post',
  path: '/octo/availability',
  summary: 'OCTO: availability check',
  description: 'Exactly one of localDateStart + localDateEnd (at most 366 days), localDate, or availabilityIds.',
  tags: octoTags,
  scope: 'ota',
  body: octoAvailabilityRequest,
  responses: { 200: { description: 'The availabilities.', schema: { type: 'array', items: octoAvailabilitySchema } }, ...octoErrorResponses },
} as const satisfies Operation;
