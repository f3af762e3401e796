// POST /octo/availability/calendar: per local day of a range (up to a year), whether and how much can be booked.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { octoCalendarDaySchema, octoUnitsRequest } from './octo-availability.schemas.js';
import { octoErrorResponses, octoLocalDate, octoTags } from './octo.schemas.js';

export const octoCalendarRequest = {
  type: 'object',
  required: ['productId', 'optionId', 'localDateStart', 'localDateEnd'],
  properties: {
    productId: { type: 'string', maxLength: 200 },
    optionId: { type: 'string', maxLength: 200 },
    localDateStart: octoLocalDate,
    localDateEnd: octoLocalDate,
    units: octoUnitsRequest,
  },
} as const;
export type OctoCalendarRequest = FromSchema<typeof octoCalendarRequest>;

export const getOctoAvailabilityCalendarOperation = {
  operationId: 'getOctoAvailabilityCalendar',
  method: 'post',
  path: '/octo/availability/calendar',
  summary: 'OCTO: availability calendar',
  description: 'One entry per local day from localDateStart to localDateEnd (at most 366 days), in the product’s time zone.',
  tags: octoTags,
  scope: 'ota',
  body: octoCalendarRequest,
  responses: { 200: { description: 'The days.', schema: { type: 'array', items: octoCalendarDaySchema } }, ...octoErrorResponses },
} as const satisfies Operation;
