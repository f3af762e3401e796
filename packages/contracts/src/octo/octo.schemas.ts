// OCTO (Open Connectivity for Tours, Activities and Attractions, octo.travel): the shapes of the core specification
// and its octo/pricing capability that /octo serves. Member names are OCTO's (camelCase), not the partner API's.
// Responses keep additionalProperties open: OCTO clients ignore members they do not know, and a capability adds some.
import type { FromSchema } from 'json-schema-to-ts';
import { textSchema } from '../common.schemas.js';

export const octoTags = ['OCTO'] as const;

export const OCTO_CAPABILITY_PRICING = 'octo/pricing';

const str = { type: 'string' } as const;
const strOrNull = { type: ['string', 'null'] } as const;
const int = { type: 'integer' } as const;
const intOrNull = { type: ['integer', 'null'] } as const;

export const octoPricingSchema = {
  type: 'object',
  required: ['original', 'retail', 'net', 'currency', 'currencyPrecision', 'includedTaxes'],
  properties: {
    original: int,
    retail: int,
    net: intOrNull,
    currency: str,
    currencyPrecision: int,
    includedTaxes: { type: 'array', items: { type: 'object' } },
  },
} as const;
export type OctoPricing = FromSchema<typeof octoPricingSchema>;

export const octoOpeningHoursSchema = {
  type: 'array',
  items: { type: 'object', required: ['from', 'to'], properties: { from: str, to: str } },
} as const;

export const octoUnitSchema = {
  type: 'object',
  required: ['id', 'internalName', 'reference', 'type', 'restrictions', 'requiredContactFields'],
  properties: {
    id: str,
    internalName: str,
    reference: strOrNull,
    type: str,
    restrictions: {
      type: 'object',
      required: ['minAge', 'maxAge', 'idRequired', 'minQuantity', 'maxQuantity', 'paxCount', 'accompaniedBy'],
      properties: {
        minAge: int,
        maxAge: int,
        idRequired: { type: 'boolean' },
        minQuantity: intOrNull,
        maxQuantity: intOrNull,
        paxCount: int,
        accompaniedBy: { type: 'array', items: str },
      },
    },
    requiredContactFields: { type: 'array', items: str },
    pricingFrom: { type: 'array', items: octoPricingSchema, description: 'octo/pricing only.' },
  },
} as const;
export type OctoUnit = FromSchema<typeof octoUnitSchema>;

export const octoOptionSchema = {
  type: 'object',
  required: [
    'id',
    'default',
    'internalName',
    'reference',
    'availabilityLocalStartTimes',
    'cancellationCutoff',
    'cancellationCutoffAmount',
    'cancellationCutoffUnit',
    'requiredContactFields',
    'restrictions',
    'units',
  ],
  properties: {
    id: str,
    default: { type: 'boolean' },
    internalName: str,
    reference: strOrNull,
    availabilityLocalStartTimes: { type: 'array', items: str },
    cancellationCutoff: str,
    cancellationCutoffAmount: int,
    cancellationCutoffUnit: str,
    requiredContactFields: { type: 'array', items: str },
    restrictions: { type: 'object', required: ['minUnits', 'maxUnits'], properties: { minUnits: int, maxUnits: intOrNull } },
    units: { type: 'array', items: octoUnitSchema },
  },
} as const;
export type OctoOption = FromSchema<typeof octoOptionSchema>;

export const octoProductSchema = {
  type: 'object',
  required: [
    'id',
    'internalName',
    'reference',
    'locale',
    'timeZone',
    'allowFreesale',
    'instantConfirmation',
    'instantDelivery',
    'availabilityRequired',
    'availabilityType',
    'deliveryFormats',
    'deliveryMethods',
    'redemptionMethod',
    'options',
  ],
  properties: {
    id: { ...str, description: 'The activity UUID (the partner API’s ActivityID).' },
    internalName: str,
    reference: strOrNull,
    locale: str,
    timeZone: str,
    allowFreesale: { type: 'boolean' },
    instantConfirmation: { type: 'boolean' },
    instantDelivery: { type: 'boolean' },
    availabilityRequired: { type: 'boolean' },
    availabilityType: { type: 'string', enum: ['START_TIME', 'OPENING_HOURS'] },
    deliveryFormats: { type: 'array', items: str },
    deliveryMethods: { type: 'array', items: str },
    redemptionMethod: str,
    options: { type: 'array', items: octoOptionSchema },
    defaultCurrency: { ...str, description: 'octo/pricing only.' },
    availableCurrencies: { type: 'array', items: str, description: 'octo/pricing only.' },
    pricingPer: { type: 'string', enum: ['UNIT', 'BOOKING'], description: 'octo/pricing only.' },
    includeTax: { type: 'boolean', description: 'octo/pricing only.' },
  },
} as const;
export type OctoProduct = FromSchema<typeof octoProductSchema>;

export const OCTO_AVAILABILITY_STATUSES = ['AVAILABLE', 'FREESALE', 'SOLD_OUT', 'LIMITED', 'CLOSED'] as const;
export type OctoAvailabilityStatus = (typeof OCTO_AVAILABILITY_STATUSES)[number];

export const octoUnitPricingSchema = {
  type: 'array',
  items: { ...octoPricingSchema, required: ['unitId', ...octoPricingSchema.required], properties: { unitId: str, ...octoPricingSchema.properties } },
} as const;

export const octoAvailabilitySchema = {
  type: 'object',
  required: [
    'id',
    'localDateTimeStart',
    'localDateTimeEnd',
    'allDay',
    'available',
    'status',
    'vacancies',
    'capacity',
    'maxUnits',
    'utcCutoffAt',
    'openingHours',
  ],
  properties: {
    id: { ...str, description: 'The local start as OCTO writes it (2026-12-01T10:00:00+01:00).' },
    localDateTimeStart: str,
    localDateTimeEnd: str,
    allDay: { type: 'boolean' },
    available: { type: 'boolean' },
    status: { type: 'string', enum: OCTO_AVAILABILITY_STATUSES },
    vacancies: intOrNull,
    capacity: intOrNull,
    maxUnits: intOrNull,
    utcCutoffAt: str,
    openingHours: octoOpeningHoursSchema,
    unitPricing: { ...octoUnitPricingSchema, description: 'octo/pricing only.' },
    pricing: { ...octoPricingSchema, description: 'octo/pricing only, when units were asked.' },
  },
} as const;
export type OctoAvailability = FromSchema<typeof octoAvailabilitySchema>;

export const octoCalendarDaySchema = {
  type: 'object',
  required: ['localDate', 'available', 'status', 'vacancies', 'capacity', 'openingHours'],
  properties: {
    localDate: str,
    available: { type: 'boolean' },
    status: { type: 'string', enum: OCTO_AVAILABILITY_STATUSES },
    vacancies: intOrNull,
    capacity: intOrNull,
    openingHours: octoOpeningHoursSchema,
    unitPricingFrom: { ...octoUnitPricingSchema, description: 'octo/pricing only.' },
    pricingFrom: { ...octoPricingSchema, description: 'octo/pricing only, when units were asked.' },
  },
} as const;
export type OctoCalendarDay = FromSchema<typeof octoCalendarDaySchema>;

export const octoContactSchema = {
  type: 'object',
  required: ['fullName', 'firstName', 'lastName', 'emailAddress', 'phoneNumber', 'locales', 'postalCode', 'country', 'notes'],
  properties: {
    fullName: strOrNull,
    firstName: strOrNull,
    lastName: strOrNull,
    emailAddress: strOrNull,
    phoneNumber: strOrNull,
    locales: { type: 'array', items: str },
    postalCode: strOrNull,
    country: strOrNull,
    notes: strOrNull,
  },
} as const;
export type OctoContact = FromSchema<typeof octoContactSchema>;

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

/** OCTO's error body: `error`, `errorMessage` and, for the INVALID_* errors, the field it is about. */
export const octoErrorSchema = {
  type: 'object',
  required: ['error', 'errorMessage'],
  properties: {
    error: {
      type: 'string',
      enum: [
        'INVALID_PRODUCT_ID',
        'INVALID_OPTION_ID',
        'INVALID_UNIT_ID',
        'INVALID_AVAILABILITY_ID',
        'INVALID_BOOKING_UUID',
        'BAD_REQUEST',
        'UNPROCESSABLE_ENTITY',
        'UNAUTHORIZED',
        'FORBIDDEN',
        'TOO_MANY_REQUESTS',
        'INTERNAL_SERVER_ERROR',
      ],
    },
    errorMessage: str,
    productId: str,
    optionId: str,
    unitId: str,
    availabilityId: str,
    uuid: str,
  },
} as const;

/** The error answers every OCTO operation may give (the statuses are in docs/octo.md). */
export const octoErrorResponses = {
  400: { description: 'OCTO error: INVALID_* (with the field), BAD_REQUEST or UNPROCESSABLE_ENTITY.', schema: octoErrorSchema },
  401: { description: 'UNAUTHORIZED: no key, or an unknown or revoked one.', schema: octoErrorSchema },
  403: { description: 'FORBIDDEN: a key without the ota scope.', schema: octoErrorSchema },
  429: { description: 'TOO_MANY_REQUESTS: over the key’s rate limit (Retry-After).', schema: octoErrorSchema },
  503: { description: 'INTERNAL_SERVER_ERROR: the database is out of reach; send the same request again (Retry-After).', schema: octoErrorSchema },
} as const;

/** Body members shared by the availability operations. */
export const octoUnitsRequest = {
  type: 'array',
  maxItems: 100,
  items: {
    type: 'object',
    required: ['id', 'quantity'],
    properties: { id: { type: 'string', maxLength: 200 }, quantity: { type: 'integer', minimum: 0, maximum: 1000 } },
  },
} as const;

export const octoLocalDate = { type: 'string', maxLength: 10 } as const;

/**
 * A request's free text (contact, notes, references, a reason), stored or looked up as sent. Ids and dates need no
 * such guard: the use cases check each against its form before any query (INVALID_* or BAD_REQUEST).
 */
export const octoTextOrNull = <const Max extends number>(maxLength: Max) => ({ ...textSchema(maxLength), type: ['string', 'null'] }) as const;

export const octoContactRequest = {
  type: 'object',
  properties: {
    fullName: octoTextOrNull(401),
    firstName: octoTextOrNull(200),
    lastName: octoTextOrNull(200),
    emailAddress: octoTextOrNull(254),
    phoneNumber: octoTextOrNull(40),
    locales: { type: 'array', maxItems: 20, items: textSchema(35) },
    postalCode: octoTextOrNull(20),
    country: octoTextOrNull(2),
    notes: octoTextOrNull(2000),
  },
} as const;
export type OctoContactRequest = FromSchema<typeof octoContactRequest>;

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
