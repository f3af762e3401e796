// OCTO's octo/pricing capability: a price, and a price per unit.
import type { FromSchema } from 'json-schema-to-ts';
import { int, intOrNull, str } from './octo-scalars.js';

export const OCTO_CAPABILITY_PRICING = 'octo/pricing';

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

export const octoUnitPricingSchema = {
  type: 'array',
  items: { ...octoPricingSchema, required: ['unitId', ...octoPricingSchema.required], properties: { unitId: str, ...octoPricingSchema.properties } },
} as const;
