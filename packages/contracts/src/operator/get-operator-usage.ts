// GET /api/v2/operator/usage: the usage summary with its per-day Series, from the same use case as the usage API.
import type { Operation } from '../operation.js';
import { getUsageSummaryQuerySchema, MAX_SERIES_DAYS, usageSummarySchema } from '../usage/get-usage-summary.js';
import { operatorTags } from './shared.schemas.js';

const { from, to, tz } = getUsageSummaryQuerySchema.properties;

export const getOperatorUsageOperation = {
  operationId: 'getOperatorUsage',
  method: 'get',
  path: '/api/v2/operator/usage',
  summary: 'Usage over a period, with a per-day series',
  description: `The usage API's summary (granularity=day) for the console: at most ${MAX_SERIES_DAYS} days.`,
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  query: { type: 'object', additionalProperties: false, required: ['From', 'To'], properties: { From: from, To: to, TimeZone: tz } },
  responses: {
    200: { description: "The summary; Meters in the usage API's order.", schema: usageSummarySchema },
    422: { description: 'Invalid period or time zone.' },
  },
} as const satisfies Operation;
