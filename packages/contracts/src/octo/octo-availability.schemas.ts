// OCTO's availability: a start time's vacancies, a calendar day's, their opening hours, and the units asked for.
import type { FromSchema } from 'json-schema-to-ts';
import { octoPricingSchema, octoUnitPricingSchema } from './octo-pricing.schemas.js';
import { intOrNull, str } from './octo-scalars.js';

export const octoOpeningHoursSchema = {
  type: 'array',
  items: { type: 'object', required: ['from', 'to'], properties: { from: str, to: str } },
} as const;

export const OCTO_AVAILABILITY_STATUSES = ['AVAILABLE', 'FREESALE', 'SOLD_OUT', 'LIMITED', 'CLOSED'] as const;
export type OctoAvailabilityStatus = (typeof OCTO_AVAILABILITY_STATUSES)[number];

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
