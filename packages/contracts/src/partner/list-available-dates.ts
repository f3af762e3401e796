// GET /api/v2/ota/partner/availability/:ActivityID/dates: local dates with bookable capacity in a range.
import type { FromSchema } from 'json-schema-to-ts';
import { calendarDateSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { activityIdParams, invalidActivityId, notFoundActivity, partnerTags } from './shared.schemas.js';

export const availableDateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Date', 'Available', 'Timeslots'],
  properties: {
    Date: { ...calendarDateSchema, description: "Local date in the activity's time zone." },
    Available: { type: 'integer', minimum: 1, description: 'Free places summed over the bookable timeslots of the date.' },
    Timeslots: { type: 'integer', minimum: 1, description: 'Number of bookable timeslots on the date.' },
  },
} as const;
export type AvailableDate = FromSchema<typeof availableDateSchema>;

export const listAvailableDatesOperation = {
  operationId: 'listAvailableDates',
  method: 'get',
  path: '/api/v2/ota/partner/availability/:ActivityID/dates',
  summary: 'Dates with bookable capacity in a range',
  description:
    'Local dates (activity time zone) from StartDate to EndDate, both included, on which at least one timeslot is bookable (open, not started, places free). The range covers at most 366 dates.',
  tags: partnerTags,
  scope: 'ota',
  params: activityIdParams,
  query: {
    type: 'object',
    required: ['StartDate', 'EndDate'],
    properties: { StartDate: calendarDateSchema, EndDate: calendarDateSchema },
  },
  responses: {
    200: { description: 'Dates with capacity, in date order.', schema: { type: 'array', items: availableDateSchema } },
    400: invalidActivityId,
    404: notFoundActivity,
    422: { description: 'StartDate or EndDate missing or invalid, EndDate before StartDate, or more than 366 dates.' },
  },
} as const satisfies Operation;
