// OCTO's product (an activity), its options and their units.
import type { FromSchema } from 'json-schema-to-ts';
import { octoPricingSchema } from './octo-pricing.schemas.js';
import { int, intOrNull, str, strOrNull } from './octo-scalars.js';

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
