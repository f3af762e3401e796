// Building blocks shared by the request, response and event schemas.
export const uuidSchema = {
  type: 'string',
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  description: 'UUID in canonical 8-4-4-4-12 hex form, any case.',
} as const;

export const calendarDateSchema = {
  type: 'string',
  format: 'date',
  description: 'Calendar date, YYYY-MM-DD.',
  examples: ['2026-07-14'],
} as const;

export const clockTimeSchema = {
  type: 'string',
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  description: 'Wall-clock time, HH:MM (24-hour).',
  examples: ['09:30'],
} as const;

/** Unix seconds, from 1970 to the end of year 9999. */
export const unixSecondsSchema = {
  type: 'integer',
  minimum: 0,
  maximum: 253402300799,
  description: 'Unix timestamp in seconds.',
} as const;

/**
 * Free text PostgreSQL can store: it refuses NUL, and an unpaired UTF-16 surrogate is not Unicode (the insert fails, or
 * the text is stored with U+FFFD instead). ajv compiles patterns with the u flag, so a surrogate pair (an emoji) passes.
 */
export function textSchema<const Max extends number>(maxLength: Max) {
  return { type: 'string', maxLength, pattern: '^[^\\u0000\\ud800-\\udfff]*$' } as const;
}

/** How a booking came in: a partner through the API, the operator's online shop, or its point of sale. */
/** on_hold -> confirmed | cancelled | expired; confirmed -> cancelled. */
export const BOOKING_STATUSES = ['on_hold', 'confirmed', 'cancelled', 'expired'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export const BOOKING_CHANNELS = ['ota', 'online', 'pos'] as const;
export type BookingChannel = (typeof BOOKING_CHANNELS)[number];

export const problemSchema = {
  type: 'object',
  description: 'RFC 7807 problem detail.',
  required: ['type', 'title', 'status', 'detail', 'instance'],
  properties: {
    type: { type: 'string', format: 'uri' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string' },
    requestId: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'message'],
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
} as const;
