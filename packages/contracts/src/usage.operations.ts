// The usage metering operations: record one entry, record a batch, read a summary (optionally with a per-day series).
// These objects drive routing, validation, the handlers' types and the OpenAPI document.
import type { FromSchema } from 'json-schema-to-ts';
import { calendarDateSchema, unixSecondsSchema } from './common.schemas.js';
import type { Operation } from './operation.js';

/** Keys that make a retry safe: the Idempotency-Key header, or a batch entry's IdempotencyKey. */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7e]{1,255}$';

/** Most entries in one batch. */
export const MAX_BATCH_ENTRIES = 1000;

/** Largest ExtraInfo, in bytes of UTF-8 (64 KiB). The schema bounds characters; the byte count is checked after it. */
export const MAX_EXTRA_INFO_BYTES = 65_536;

// PostgreSQL text cannot hold U+0000 and an unpaired UTF-16 surrogate is not Unicode: both are refused here rather
// than failing the insert or being silently replaced.
/**
 * The largest Usage one entry may carry. Below 2**53, so every integer amount is exact; and no sum the API can return
 * (a period's entries of an account) comes anywhere near the largest finite double, so totals stay JSON numbers.
 */
export const MAX_USAGE = 1e15;

const usageEntryProperties = {
  Meter: {
    type: 'string',
    minLength: 1,
    maxLength: 255,
    pattern: '^[^\\u0000\\ud800-\\udfff]*[^\\s\\u0000\\ud800-\\udfff][^\\u0000\\ud800-\\udfff]*$',
    'x-message': 'must be a string with at least one non-blank character (and no NUL character or unpaired surrogate).',
    description: 'Name of the meter; any name may be used. Non-empty after trimming, at most 255 characters. Stored as sent.',
    examples: ['api-calls'],
  },
  Usage: {
    type: 'number',
    exclusiveMinimum: 0,
    maximum: MAX_USAGE,
    'x-message': 'must be a finite JSON number, greater than 0 and at most 1e15 (a string such as "5" is not a number).',
    description:
      'Amount used, greater than 0 and at most 1e15. Read as a JSON number (an IEEE 754 double): up to 15 significant digits are kept exactly, so every integer up to the maximum is; stored and summed as an exact decimal.',
    examples: [1.5],
  },
  ExtraInfo: {
    type: 'string',
    maxLength: MAX_EXTRA_INFO_BYTES,
    pattern: '^[^\\u0000\\ud800-\\udfff]*$',
    'x-message': 'must be a string (and contain no NUL character or unpaired surrogate).',
    description: 'Free metadata, for example a JSON-encoded payload; at most 64 KiB of UTF-8.',
    examples: ['{"Endpoint":"/bookings"}'],
  },
  OccurredAt: {
    ...unixSecondsSchema,
    'x-message': 'must be an integer Unix timestamp in seconds.',
    description: 'When the usage happened, Unix seconds (0 to 253402300799). Defaults to the time the server received the entry.',
  },
} as const;

export const recordUsageEntryBodySchema = {
  type: 'object',
  required: ['Meter', 'Usage'],
  properties: usageEntryProperties,
} as const;
export type RecordUsageEntryBody = FromSchema<typeof recordUsageEntryBodySchema>;

/** A batch entry: the members of a single entry plus an optional per-entry idempotency key. */
export const batchUsageEntrySchema = {
  type: 'object',
  required: ['Meter', 'Usage'],
  properties: {
    ...usageEntryProperties,
    IdempotencyKey: {
      type: 'string',
      pattern: IDEMPOTENCY_KEY_PATTERN,
      'x-message': 'must be 1 to 255 visible ASCII characters.',
      description: 'Same meaning as the Idempotency-Key header of a single POST, and the same key space: a retried entry is stored once.',
    },
  },
} as const;
export type BatchUsageEntry = FromSchema<typeof batchUsageEntrySchema>;

export const usageEntrySchema = {
  type: 'object',
  required: ['ID', 'Meter', 'Usage', 'ExtraInfo', 'OccurredAt'],
  properties: {
    ID: { type: 'integer' },
    Meter: { type: 'string' },
    Usage: { type: 'number' },
    ExtraInfo: { type: ['string', 'null'] },
    OccurredAt: { type: 'integer', description: 'Unix seconds.' },
  },
} as const;
export type UsageEntry = FromSchema<typeof usageEntrySchema>;

export const recordUsageEntryResponseSchema = {
  type: 'object',
  required: ['data'],
  properties: { data: usageEntrySchema },
} as const;
export type RecordUsageEntryResponse = FromSchema<typeof recordUsageEntryResponseSchema>;

export const recordUsageEntry = {
  operationId: 'recordUsageEntry',
  method: 'post',
  path: '/api/v2/usage/meters',
  summary: 'Record a usage entry',
  description:
    'Stores one usage entry. A 201 means the entry is durable and already counted in every summary asked for afterwards. ' +
    'With an Idempotency-Key, a retry with the same body returns the first answer (Idempotent-Replayed: true) and counts nothing new; ' +
    'a retry while the first request is still running gets 409 and may try again; the same key with another body is refused with 422.',
  tags: ['Usage'],
  scope: 'usage:write',
  body: recordUsageEntryBodySchema,
  idempotent: true,
  responses: {
    201: {
      description: 'Entry recorded (or, with Idempotent-Replayed: true, the entry recorded by the first request with this key).',
      schema: recordUsageEntryResponseSchema,
      headers: { 'Idempotent-Replayed': { description: '"true" when this answer replays an earlier request with the same Idempotency-Key.' } },
    },
    400: { description: 'Malformed JSON or Idempotency-Key header.' },
    413: { description: 'Body too large.' },
    409: { description: '`/idempotency-in-progress`: a request with this Idempotency-Key is still running.' },
    415: { description: 'Body is not JSON.' },
    422: { description: 'A field failed validation (detail names it; errors lists every failure), or the Idempotency-Key was used with another body.' },
  },
} as const satisfies Operation;

export const recordUsageEntriesBodySchema = {
  type: 'object',
  required: ['Entries'],
  properties: {
    Entries: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_BATCH_ENTRIES,
      // Entries are validated one by one in the handler (against batchUsageEntrySchema), so that one bad entry
      // is answered on its own instead of failing the whole batch.
      items: {
        description:
          'A usage entry: Meter, Usage, ExtraInfo, OccurredAt with the rules of POST /api/v2/usage/meters, plus an optional IdempotencyKey (1 to 255 visible ASCII characters).',
        examples: [{ Meter: 'api-calls', Usage: 1, OccurredAt: 1767225600, IdempotencyKey: 'req-42' }],
      },
      description: `1 to ${MAX_BATCH_ENTRIES} usage entries.`,
    },
  },
} as const;
export type RecordUsageEntriesBody = FromSchema<typeof recordUsageEntriesBodySchema>;

const fieldErrorSchema = {
  type: 'object',
  required: ['Field', 'Message'],
  properties: { Field: { type: 'string', description: 'Member of the entry, e.g. Usage.' }, Message: { type: 'string' } },
} as const;

export const batchEntryResultSchema = {
  type: 'object',
  required: ['Index', 'Status'],
  properties: {
    Index: { type: 'integer', description: 'Position of the entry in the request, from 0.' },
    Status: {
      type: 'string',
      enum: ['created', 'replayed', 'rejected'],
      description: 'created: stored now; replayed: its IdempotencyKey was already used with the same entry, nothing new stored; rejected: not stored, see Errors.',
    },
    Entry: usageEntrySchema,
    Errors: { type: 'array', items: fieldErrorSchema },
  },
} as const;
export type BatchEntryResult = FromSchema<typeof batchEntryResultSchema>;

export const recordUsageEntriesResponseSchema = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      required: ['Created', 'Replayed', 'Rejected', 'Results'],
      properties: {
        Created: { type: 'integer' },
        Replayed: { type: 'integer' },
        Rejected: { type: 'integer' },
        Results: { type: 'array', items: batchEntryResultSchema, description: 'One result per entry, in request order.' },
      },
    },
  },
} as const;
export type RecordUsageEntriesResponse = FromSchema<typeof recordUsageEntriesResponseSchema>;

export const recordUsageEntries = {
  operationId: 'recordUsageEntries',
  method: 'post',
  path: '/api/v2/usage/meters/batch',
  summary: 'Record up to 1,000 usage entries',
  description:
    'Validates every entry on its own, with the rules of POST /api/v2/usage/meters, and stores all valid entries in one transaction. ' +
    'Answers 201 when every entry was created or replayed, 207 when at least one entry was rejected (the others are stored). ' +
    'An invalid envelope (not an object, no Entries array, empty, more than 1,000 entries) is a 422 and stores nothing. ' +
    'The Idempotency-Key header replays the whole answer; an entry IdempotencyKey dedupes that entry.',
  tags: ['Usage'],
  scope: 'usage:write',
  body: recordUsageEntriesBodySchema,
  idempotent: true,
  responses: {
    201: { description: 'Every entry created or replayed.', schema: recordUsageEntriesResponseSchema },
    207: { description: 'Some entries rejected; the valid ones are stored.', schema: recordUsageEntriesResponseSchema },
    400: { description: 'Malformed JSON or Idempotency-Key header.' },
    409: { description: 'A request with this Idempotency-Key is still running.' },
    413: { description: 'Body too large.' },
    415: { description: 'Body is not JSON.' },
    422: { description: 'Invalid envelope, or the Idempotency-Key was used with another body; nothing stored.' },
  },
} as const satisfies Operation;

/** Longest period a summary may cover, in days (ten years and then some). */
export const MAX_SUMMARY_DAYS = 3660;

/** Longest period of a per-day series (granularity=day), in days: a leap year. */
export const MAX_SERIES_DAYS = 366;

const summaryDateSchema = { ...calendarDateSchema, 'x-message': 'must be a calendar date in the form YYYY-MM-DD.' } as const;

export const getUsageSummaryQuerySchema = {
  type: 'object',
  required: ['from', 'to'],
  properties: {
    from: { ...summaryDateSchema, description: 'First day of the period (inclusive, from local 00:00:00).' },
    to: { ...summaryDateSchema, description: `Last day of the period (inclusive, through local 23:59:59); on or after from, at most ${MAX_SUMMARY_DAYS} days in all.` },
    tz: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: "IANA time zone for the day boundaries (e.g. Europe/Berlin); defaults to the account's time zone.",
      examples: ['Europe/Berlin'],
    },
    granularity: { type: 'string', enum: ['day'], description: `day: add Series, the totals of every local day of the period (then at most ${MAX_SERIES_DAYS} days).` },
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

export const getUsageSummary = {
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
    422: { description: `from or to missing or not a calendar date, to before from, a period over ${MAX_SUMMARY_DAYS} days (${MAX_SERIES_DAYS} with granularity=day), an unknown tz or granularity.` },
  },
} as const satisfies Operation;

export const usageOperations = [recordUsageEntry, recordUsageEntries, getUsageSummary] as const;
