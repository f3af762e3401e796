// OCTO's booking and its unit items (a ticket each), as answered; the unit items and the booking's uuid as a request
// sends them.
import type { FromSchema } from 'json-schema-to-ts';
import { octoOpeningHoursSchema } from './octo-availability.schemas.js';
import { octoContactRequest, octoContactSchema } from './octo-contact.schemas.js';
import { octoPricingSchema } from './octo-pricing.schemas.js';
import { octoOptionSchema, octoProductSchema, octoUnitSchema } from './octo-product.schemas.js';
import { octoTextOrNull } from './octo.schemas.js';
import { str, strOrNull } from './octo-scalars.js';

export const OCTO_BOOKING_STATUSES = ['ON_HOLD', 'CONFIRMED', 'EXPIRED', 'CANCELLED', 'REDEEMED', 'PENDING', 'REJECTED'] as const;

const octoTicketSchema = {
  type: ['object', 'null'],
  required: ['redemptionMethod', 'utcRedeemedAt', 'deliveryOptions'],
  properties: {
    redemptionMethod: str,
    utcRedeemedAt: strOrNull,
    deliveryOptions: {
      type: 'array',
      items: { type: 'object', required: ['deliveryFormat', 'deliveryValue'], properties: { deliveryFormat: str, deliveryValue: str } },
    },
  },
} as const;

export const octoUnitItemSchema = {
  type: 'object',
  required: ['uuid', 'resellerReference', 'supplierReference', 'unitId', 'unit', 'status', 'utcRedeemedAt', 'contact', 'ticket'],
  properties: {
    uuid: str,
    resellerReference: strOrNull,
    supplierReference: { ...strOrNull, description: 'The ticket reference: the booking reference and the participant’s number.' },
    unitId: str,
    unit: octoUnitSchema,
    status: { type: 'string', enum: OCTO_BOOKING_STATUSES },
    utcRedeemedAt: strOrNull,
    contact: octoContactSchema,
    ticket: octoTicketSchema,
    pricing: { ...octoPricingSchema, description: 'octo/pricing only.' },
  },
} as const;
export type OctoUnitItem = FromSchema<typeof octoUnitItemSchema>;

export const octoBookingSchema = {
  type: 'object',
  required: [
    'id',
    'uuid',
    'testMode',
    'resellerReference',
    'supplierReference',
    'status',
    'utcCreatedAt',
    'utcUpdatedAt',
    'utcExpiresAt',
    'utcRedeemedAt',
    'utcConfirmedAt',
    'productId',
    'product',
    'optionId',
    'option',
    'cancellable',
    'cancellation',
    'freesale',
    'availabilityId',
    'availability',
    'contact',
    'notes',
    'deliveryMethods',
    'voucher',
    'unitItems',
  ],
  properties: {
    id: str,
    uuid: str,
    testMode: { type: 'boolean' },
    resellerReference: strOrNull,
    supplierReference: { ...strOrNull, description: 'The booking reference (the partner API’s Reference).' },
    status: { type: 'string', enum: OCTO_BOOKING_STATUSES },
    utcCreatedAt: str,
    utcUpdatedAt: strOrNull,
    utcExpiresAt: strOrNull,
    utcRedeemedAt: strOrNull,
    utcConfirmedAt: strOrNull,
    productId: str,
    product: octoProductSchema,
    optionId: str,
    option: octoOptionSchema,
    cancellable: { type: 'boolean' },
    cancellation: {
      type: ['object', 'null'],
      required: ['refund', 'reason', 'utcCancelledAt'],
      properties: { refund: str, reason: strOrNull, utcCancelledAt: str },
    },
    freesale: { type: 'boolean' },
    availabilityId: str,
    availability: {
      type: 'object',
      required: ['id', 'localDateTimeStart', 'localDateTimeEnd', 'allDay', 'openingHours'],
      properties: { id: str, localDateTimeStart: str, localDateTimeEnd: str, allDay: { type: 'boolean' }, openingHours: octoOpeningHoursSchema },
    },
    contact: octoContactSchema,
    notes: strOrNull,
    deliveryMethods: { type: 'array', items: str },
    voucher: { type: 'null' },
    unitItems: { type: 'array', items: octoUnitItemSchema },
    pricing: { ...octoPricingSchema, description: 'octo/pricing only.' },
  },
} as const;
export type OctoBooking = FromSchema<typeof octoBookingSchema>;

export const octoUnitItemsRequest = {
  type: 'array',
  maxItems: 100,
  items: {
    type: 'object',
    required: ['unitId'],
    properties: {
      unitId: { type: 'string', maxLength: 200 },
      uuid: { type: 'string', maxLength: 36 },
      resellerReference: octoTextOrNull(200),
      contact: octoContactRequest,
    },
  },
} as const;
export type OctoUnitItemsRequest = FromSchema<typeof octoUnitItemsRequest>;

export const octoBookingUuidParams = {
  type: 'object',
  required: ['uuid'],
  properties: { uuid: { type: 'string', description: 'The booking’s uuid (the reseller’s, or ours when it sent none).' } },
} as const;
