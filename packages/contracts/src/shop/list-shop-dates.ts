// GET /api/v2/shop/:Slug/activities/:ActivityID/dates?Month=YYYY-MM: the local dates of a month with free places, for
// the page's calendar.
import type { Operation } from '../operation.js';
import { availableDateSchema } from '../partner/list-available-dates.js';
import { notFoundPage, shopActivityParams, shopRateLimited, shopTags } from './shared.schemas.js';

export const shopMonthSchema = {
  type: 'string',
  pattern: '^(000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})-(0[1-9]|1[0-2])$',
  description: 'The month, YYYY-MM (0001-01 to 9999-12).',
  examples: ['2026-07'],
  'x-message': 'must be a month in the form YYYY-MM.',
} as const;

export const listShopDatesOperation = {
  operationId: 'listShopDates',
  method: 'get',
  path: '/api/v2/shop/:Slug/activities/:ActivityID/dates',
  summary: 'Dates of a month with free places',
  description:
    "Public (no API key). The local dates (the activity's time zone) of Month on which at least one timeslot is bookable: open, not started, places free.",
  tags: shopTags,
  auth: 'public',
  params: shopActivityParams,
  query: {
    type: 'object',
    required: ['Month'],
    properties: {
      Month: shopMonthSchema,
    },
  },
  responses: {
    200: { description: 'Dates with free places, in date order.', schema: { type: 'array', items: availableDateSchema } },
    400: { description: 'Slug or ActivityID malformed.' },
    404: notFoundPage,
    422: { description: 'Month missing or not YYYY-MM.' },
    429: shopRateLimited,
  },
} as const satisfies Operation;
