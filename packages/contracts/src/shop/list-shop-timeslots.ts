// GET /api/v2/shop/:Slug/activities/:ActivityID/timeslots?Date=YYYY-MM-DD: the timeslots of a local date still to come,
// the full ones among them marked full (the page shows them as such rather than hiding them).
import type { FromSchema } from 'json-schema-to-ts';
import { calendarDateSchema, clockTimeSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { notFoundPage, shopActivityParams, shopRateLimited, shopTags } from './shared.schemas.js';

export const shopTimeslotSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Time', 'StartsAt', 'EndsAt', 'Available', 'Full'],
  properties: {
    Time: { ...clockTimeSchema, description: "Local start time in the activity's time zone; send it back as Time with the hold." },
    StartsAt: { type: 'string', format: 'date-time', description: "Start, ISO 8601 with the UTC offset in force in the activity's zone." },
    EndsAt: { type: 'string', format: 'date-time' },
    Available: { type: 'integer', minimum: 0, description: 'Places left.' },
    Full: { type: 'boolean', description: 'No place left.' },
  },
} as const;
export type ShopTimeslot = FromSchema<typeof shopTimeslotSchema>;

export const listShopTimeslotsOperation = {
  operationId: 'listShopTimeslots',
  method: 'get',
  path: '/api/v2/shop/:Slug/activities/:ActivityID/timeslots',
  summary: 'Timeslots of a date, full ones marked',
  description: "Public (no API key). The open timeslots of Date (the activity's time zone) that have not started, by time.",
  tags: shopTags,
  auth: 'public',
  params: shopActivityParams,
  query: { type: 'object', required: ['Date'], properties: { Date: calendarDateSchema } },
  responses: {
    200: { description: 'The timeslots.', schema: { type: 'array', items: shopTimeslotSchema } },
    400: { description: 'Slug or ActivityID malformed.' },
    404: notFoundPage,
    422: { description: 'Date missing or invalid.' },
    429: shopRateLimited,
  },
} as const satisfies Operation;
