// What the usage operations share: the members of a usage entry as recorded, and the entry as answered.
import type { FromSchema } from 'json-schema-to-ts';
import { unixSecondsSchema } from '../common.schemas.js';

/** Keys that make a retry safe: the Idempotency-Key header, or a batch entry's IdempotencyKey. */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7e]{1,255}$';

/** Largest ExtraInfo, in bytes of UTF-8 (64 KiB). The schema bounds characters; the byte count is checked after it. */
export const MAX_EXTRA_INFO_BYTES = 65_536;

/**
 * The largest Usage one entry may carry. Below 2**53, so every integer amount is exact; and no sum the API can return
 * (a period's entries of an account) comes anywhere near the largest finite double, so totals stay JSON numbers.
 */
export const MAX_USAGE = 1e15;

// PostgreSQL text cannot hold U+0000 and an unpaired UTF-16 surrogate is not Unicode: both are refused here rather
// than failing the insert or being silently replaced.
export const usageEntryProperties = {
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
