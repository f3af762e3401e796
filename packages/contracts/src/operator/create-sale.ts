// POST /api/v2/operator/sales: a point-of-sale sale, booked through the same atomic reservation as every channel.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { bookingRequestSchema, bookingSchema } from '../partner/create-booking.js';
import { operatorTags } from './shared.schemas.js';

// A partner's booking request without Hold: a sale at the counter is paid and booked at once, customer included.

/** How a sale at the desk was paid; the end-of-day cash-up sums the day's sales by it. */
export const PAYMENT_METHODS = ['cash', 'card', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
const { Hold: _hold, ...saleProperties } = bookingRequestSchema.properties;

/**
 * A price set by hand at the desk: the total charged for the whole party, in the booking's currency, and why. A total
 * equal to the list price (the unit price times the party) is no override and needs no reason; any other total needs
 * one. Below the list price it is a discount, above it an override: who may do which is the permission table's grants.
 */
export const priceOverrideSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['TotalMinor', 'Currency'],
  properties: {
    TotalMinor: { type: 'integer', minimum: 0, maximum: 100000000000, description: 'The total charged for the party, in minor units; not negative.' },
    Currency: { type: 'string', pattern: '^[A-Z]{3}$', description: "The booking's currency (the activity's); another is refused." },
    Reason: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: '^[^\\u0000\\ud800-\\udfff]*$',
      description: 'Why the price differs from the list price (1 to 200 characters); required whenever it does.',
    },
  },
} as const;
export type PriceOverride = FromSchema<typeof priceOverrideSchema>;

export const saleRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ActivityID', 'Date', 'Time', 'Participants', 'Customer'],
  properties: {
    ...saleProperties,
    // A walk-in may give no address: the desk then sends no e-mail (the mail outbox skips a booking without one).
    Customer: {
      ...saleProperties.Customer,
      required: ['FirstName', 'LastName'],
      description: 'Who comes. Email is optional at the desk: without it no customer e-mail is sent.',
    },
    PaymentReference: { ...saleProperties.PaymentReference, description: "The till's receipt or the card terminal's reference." },
    PaymentMethod: { type: 'string', enum: PAYMENT_METHODS, description: 'How it was paid: cash, card or other (the cash-up sums by it).' },
    Overbook: {
      type: 'boolean',
      description:
        "An owner's confirmation to sell past the timeslot's capacity when it has too few places left (the grant overbook: owners only). The places count as booked (the timeslot shows e.g. 8/6); partners and the booking page still see none. Without it a full timeslot is a 409.",
    },
    PriceOverride: {
      ...priceOverrideSchema,
      description: "The total charged when it is not the activity's price times the party (a discount, or an owner's override), with the reason.",
    },
  },
} as const;
export type SaleRequest = FromSchema<typeof saleRequestSchema>;

export const createSaleOperation = {
  operationId: 'createSale',
  method: 'post',
  path: '/api/v2/operator/sales',
  summary: 'Sell at the point of sale',
  description:
    "A `pos` booking of any active activity (hidden from the shopfront or not): a partner's booking body without Hold. " +
    'Safe to retry with an Idempotency-Key.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  body: saleRequestSchema,
  idempotent: true,
  responses: {
    201: { description: 'Sold.', schema: bookingSchema },
    409: {
      description:
        '`/insufficient-capacity` (detail and `Available` say how many places are left) or `/timeslot-unavailable` (closed, started or no such timeslot).',
    },
    403: {
      description:
        '`/forbidden`: a PriceOverride the role may not set (staff may discount, only owners charge more than the list price), or Overbook from a role without the grant (owners only).',
    },
    422: {
      description:
        "Invalid body, an unknown activity, too many participants, invalid answers, or a PriceOverride in another currency than the activity's or without a reason.",
    },
  },
} as const satisfies Operation;
