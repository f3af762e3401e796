// GET /api/v2/usage/meters: the summary of a period, optionally with a per-day series.
import type { FromSchema } from 'json-schema-to-ts';
import { calendarDateSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';

/** Longest period a summary may cover, in days (ten years and then some). */
export const MAX_SUMMARY_DAYS = 3660;

/** Longest period of a per-day series (granularity=day), in days: a leap year. */
export const MAX_SERIES_DAYS = 366;

export const getUsageSummaryQuerySchema = {
  type: 'object',
  required: ['from', 'to'],
  properties: {
    from: { ...calendarDateSchema, description: 'First day of the period (inclusive, from local 00:00:00).' },
    to: {
      ...calendarDateSchema,
      description: `Last day of the period (inclusive, through local 23:59:59); on or after from, at most ${MAX_SUMMARY_DAYS} days in all.`,
    },
    tz: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: "IANA time zone for the day boundaries (e.g. Europe/Berlin); defaults to the account's time zone.",
      examples: ['Europe/Berlin'],
    },
    granularity: {
      type: 'string',
      enum: ['day'],
      description: `day: add Series, the totals of every local day of the period (then at most ${MAX_SERIES_DAYS} days).`,
    },
  },
} as const;
export type GetUsageSummaryQuery = FromSchema<typeof getUsageSummaryQuerySchema>;

const meterTotalSchema = {
  type: 'object',
  required: ['Meter', 'TotalUsage', 'EventCount'],
  properties: { Meter: { type: 'string' }, TotalUsage: { type: 'number' }, EventCount: { type: 'integer' } },
} as const;

const totalsSchema = {
  type: 'object',
  required: ['Usage', 'Events'],
  properties: { Usage: { type: 'number' }, Events: { type: 'integer' } },
} as const;

export const usageSummarySchema = {
  type: 'object',
  required: ['Period', 'Totals', 'Meters'],
  properties: {
    Period: {
      type: 'object',
      required: ['From', 'To', 'FromTimestamp', 'ToTimestamp'],
      properties: {
        From: { type: 'string', format: 'date' },
        To: { type: 'string', format: 'date' },
        FromTimestamp: { type: 'integer', description: 'Unix seconds of local 00:00:00 of From.' },
        ToTimestamp: { type: 'integer', description: 'Unix seconds of local 23:59:59 of To.' },
      },
    },
    Totals: totalsSchema,
    Meters: { type: 'array', items: meterTotalSchema, description: 'Sorted by TotalUsage, highest first, then by Meter (code point order).' },
    Series: {
      type: 'array',
      description: 'Only with granularity=day: every local day of the period in date order, days without entries included.',
      items: {
        type: 'object',
        required: ['Date', 'Totals', 'Meters'],
        properties: {
          Date: { type: 'string', format: 'date' },
          Totals: totalsSchema,
          Meters: { type: 'array', items: meterTotalSchema, description: 'Meters with entries on that day, sorted as the period Meters.' },
        },
      },
    },
  },
} as const;
export type UsageSummary = FromSchema<typeof usageSummarySchema>;

export const getUsageSummaryResponseSchema = {
  type: 'object',
  required: ['data'],
  properties: { data: usageSummarySchema },
} as const;
export type GetUsageSummaryResponse = FromSchema<typeof getUsageSummaryResponseSchema>;

export const getUsageSummaryOperation = {
  operationId: 'getUsageSummary',
  method: 'get',
  path: '/api/v2/usage/meters',
  summary: 'Summarise usage over a date range',
  description:
    "Totals and per-meter sums of the entries with FromTimestamp <= OccurredAt <= ToTimestamp, day boundaries in the account's time zone " +
    'or in tz. Sums are exact decimals, returned as JSON numbers. Every entry that got its 201 is included.',
  tags: ['Usage'],
  scope: 'usage:read',
  query: getUsageSummaryQuerySchema,
  responses: {
    200: { description: 'The summary.', schema: getUsageSummaryResponseSchema },
    422: {
      description: `from or to missing or not a calendar date, to before from, a period over ${MAX_SUMMARY_DAYS} days (${MAX_SERIES_DAYS} with granularity=day), an unknown tz or granularity.`,
    },
  },
} as const satisfies Operation;
