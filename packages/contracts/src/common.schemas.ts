// Building blocks shared by the request, response and event schemas.
export const uuidSchema = {
  type: 'string',
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  description: 'UUID in canonical 8-4-4-4-12 hex form, any case.',
} as const;

/**
 * The one date rule of every API: a calendar date from 0001-01-01 to 9999-12-31, the range PostgreSQL (which has no
 * year 0000) and JavaScript (whose ISO text has four-digit years only up to 9999) both hold. The `date` and
 * `date-time` formats of the validator apply it, and so does every check of a date outside a schema.
 */
/** What a date member must be, in the words of every error that refuses one. */
export const CALENDAR_DATE_RULE = 'must be a calendar date in the form YYYY-MM-DD, from 0001-01-01 to 9999-12-31';

export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);
}

/** The first and last instants the APIs take and give: the calendar dates' range, in UTC. */
export const EARLIEST_INSTANT_MS = Date.parse('0001-01-01T00:00:00.000Z');
export const LATEST_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export const calendarDateSchema = {
  type: 'string',
  format: 'date',
  description: 'Calendar date, YYYY-MM-DD, from 0001-01-01 to 9999-12-31.',
  examples: ['2026-07-14'],
  'x-message': `${CALENDAR_DATE_RULE}.`,
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

/**
 * The customer of a booking as answered: FirstName, LastName and Email are always there once it is confirmed; a hold
 * shows what it was given (a partner may hold places first and send the customer with its confirm).
 */
export const bookingCustomerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Phone'],
  description: 'FirstName, LastName and Email are always present once the booking is confirmed; a hold shows what it was given.',
  properties: {
    FirstName: { type: 'string' },
    LastName: { type: 'string' },
    Email: { type: 'string' },
    Phone: { type: ['string', 'null'] },
  },
} as const;

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
