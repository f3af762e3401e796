// GET /api/v2/ota/partner/availability/:ActivityID/timeslots: bookable timeslots on a local date.
import type { FromSchema } from 'json-schema-to-ts';
import { calendarDateSchema, clockTimeSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { activityIdParams, invalidActivityId, notFoundActivity, partnerTags } from './shared.schemas.js';

export const availableTimeslotSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Time', 'StartsAt', 'EndsAt', 'Capacity', 'Available'],
  properties: {
    Time: { ...clockTimeSchema, description: "Local start time in the activity's time zone; send it back as Time when booking." },
    StartsAt: {
      type: 'string',
      format: 'date-time',
      description: "Start, ISO 8601 with the UTC offset in force in the activity's zone.",
      examples: ['2026-03-29T03:00:00+02:00'],
    },
    EndsAt: { type: 'string', format: 'date-time', description: "End, ISO 8601 with the UTC offset in force in the activity's zone." },
    Capacity: { type: 'integer', minimum: 0 },
    Available: { type: 'integer', minimum: 1, description: 'Free places.' },
  },
} as const;
export type AvailableTimeslot = FromSchema<typeof availableTimeslotSchema>;

export const listAvailableTimeslotsOperation = {
  operationId: 'listAvailableTimeslots',
  method: 'get',
  path: '/api/v2/ota/partner/availability/:ActivityID/timeslots',
  summary: 'Bookable timeslots on a date',
  description: "Open, not yet started timeslots with free places that start on Date in the activity's time zone, ordered by time.",
  tags: partnerTags,
  scope: 'ota',
  params: activityIdParams,
  query: { type: 'object', required: ['Date'], properties: { Date: calendarDateSchema } },
  responses: {
    200: { description: 'The timeslots.', schema: { type: 'array', items: availableTimeslotSchema } },
    400: invalidActivityId,
    404: notFoundActivity,
    422: { description: 'Date missing or invalid.' },
  },
} as const satisfies Operation;
