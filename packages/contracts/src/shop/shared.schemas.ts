// Schemas and answers shared by the shop operations: the public API of an account's online booking page
// (/api/v2/shop/{Slug}/...). Member names are PascalCase as in the partner API, whose building blocks they reuse.
import type { FromSchema } from 'json-schema-to-ts';
import { bookingCustomerSchema, BOOKING_STATUSES, calendarDateSchema, clockTimeSchema, uuidSchema } from '../common.schemas.js';
import { bookingPriceSchema } from '../partner/create-booking.js';
import { activityIdParams } from '../partner/shared.schemas.js';

export const shopTags = ['Shop'] as const;

/** A page's slug: what follows /book/ in its address. Lower-case letters, digits and inner hyphens, 3 to 50. */
export const SHOP_SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9-]{1,48})[a-z0-9]$';

export const shopSlugSchema = {
  type: 'string',
  pattern: SHOP_SLUG_PATTERN,
  description: "The booking page's slug (3 to 50 lower-case letters, digits and inner hyphens), as in {base}/book/{Slug}.",
  'x-message': 'must be a booking page slug (3 to 50 lower-case letters, digits and hyphens).',
} as const;

export const shopParams = { type: 'object', required: ['Slug'], properties: { Slug: shopSlugSchema } } as const;

export const shopActivityParams = {
  type: 'object',
  required: ['Slug', 'ActivityID'],
  properties: { Slug: shopSlugSchema, ActivityID: activityIdParams.properties.ActivityID },
} as const;

/**
 * The customer's secret for one booking: 32 random bytes in base64url (256 bits), answered once by the hold and
 * stored only as its SHA-256. It opens that booking alone: confirm or release the hold, then manage the booking.
 */
export const shopTokenSchema = {
  type: 'string',
  pattern: '^[A-Za-z0-9_-]{43}$',
  description: "The booking's token, as the hold answered it (43 base64url characters).",
  'x-message': 'must be a booking token (43 base64url characters).',
} as const;

export const shopTokenParams = { type: 'object', required: ['Slug', 'Token'], properties: { Slug: shopSlugSchema, Token: shopTokenSchema } } as const;

export const shopActivitySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ActivityID', 'Name', 'Description', 'DurationMinutes', 'TimeZone', 'Price', 'MinParticipants', 'MaxParticipants'],
  properties: {
    ActivityID: uuidSchema,
    Name: { type: 'string' },
    Description: { type: 'string' },
    DurationMinutes: { type: 'integer', minimum: 1 },
    TimeZone: { type: 'string', description: 'IANA time zone of the activity: the dates and times of its timeslots are local to it.' },
    Price: {
      type: 'object',
      additionalProperties: false,
      required: ['Amount', 'Currency'],
      description: 'Price per participant, paid at the venue.',
      properties: {
        Amount: { type: 'integer', minimum: 0, description: 'Minor units of the currency (cents).' },
        Currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217.' },
      },
    },
    MinParticipants: { type: 'integer', minimum: 1, description: 'Fewest participants one booking may carry.' },
    MaxParticipants: { type: 'integer', minimum: 1, description: 'Most participants one booking may carry.' },
  },
} as const;
export type ShopActivity = FromSchema<typeof shopActivitySchema>;

/** A booking as its customer sees it at the manage link: that booking alone, nothing of anyone else's. */
export const shopBookingSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'Reference',
    'Status',
    'ActivityID',
    'ActivityName',
    'Date',
    'Time',
    'StartsAt',
    'TimeZone',
    'Participants',
    'Customer',
    'Price',
    'ExpiresAt',
    'ChangeableUntil',
    'CreatedAt',
  ],
  properties: {
    Reference: { type: 'string', pattern: '^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$', description: "The booking's reference, to quote to the operator." },
    Status: { type: 'string', enum: BOOKING_STATUSES, description: 'on_hold until Book confirms it; then confirmed, or cancelled.' },
    ActivityID: uuidSchema,
    ActivityName: { type: 'string' },
    Date: { ...calendarDateSchema, description: "Local date in the activity's time zone." },
    Time: clockTimeSchema,
    StartsAt: { type: 'string', format: 'date-time', description: "Start, ISO 8601 with the UTC offset in force in the activity's zone." },
    TimeZone: { type: 'string' },
    Participants: { type: 'integer', minimum: 1 },
    Customer: bookingCustomerSchema,
    Price: bookingPriceSchema,
    ExpiresAt: { type: ['string', 'null'], format: 'date-time', description: 'A hold: when its places are released unless confirmed. Null otherwise.' },
    ChangeableUntil: {
      type: 'string',
      format: 'date-time',
      description: "Until when the customer may cancel or move it (the activity's cutoff before its start), ISO 8601 in UTC.",
    },
    CreatedAt: { type: 'string', format: 'date-time' },
  },
} as const;
export type ShopBooking = FromSchema<typeof shopBookingSchema>;

export const notFoundPage = {
  description: '`/not-found`: no enabled booking page with this slug, or no activity of its shopfront with this ActivityID.',
} as const;
export const notFoundToken = {
  description: '`/not-found`: no booking of this page with this token (unknown, released or expired hold tokens included).',
} as const;

/** Every shop operation is counted per client address; over its budget, this. */
export const shopRateLimited = {
  description:
    '`/rate-limited`: this address has spent its budget of this kind of request (reads, holds, uploads) for the window; `/too-many-holds`: this address already holds the most live holds it may (5). Retry after `Retry-After` seconds.',
  headers: { 'Retry-After': { description: 'Whole seconds to wait before trying again.' } },
} as const;
