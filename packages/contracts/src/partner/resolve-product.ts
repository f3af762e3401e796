// GET /api/v2/ota/partner/resolve-product: one product by ID or by exact Name.
import type { Operation } from '../operation.js';
import { partnerTags, productSchema, visibleText } from './shared.schemas.js';

// Decimal digits only: a lax integer coercion would turn "0x10" or " 1" into an ID.
const productIdQuerySchema = {
  type: 'string',
  pattern: '^[1-9][0-9]{0,14}$',
  description: 'Numeric product ID (a positive integer).',
  'x-message': 'must be a positive integer.',
} as const;

export const resolveProductOperation = {
  operationId: 'resolveProduct',
  method: 'get',
  path: '/api/v2/ota/partner/resolve-product',
  summary: 'Look up one product by ID or by Name',
  description: 'Send exactly one of ID or Name. Name matches exactly, ignoring case; when several products share it, the lowest ID wins.',
  tags: partnerTags,
  scope: 'ota',
  queryErrorStatus: 400,
  query: {
    type: 'object',
    properties: {
      ID: productIdQuerySchema,
      Name: { ...visibleText(200), description: 'Exact product name, case-insensitive.' },
    },
  },
  responses: {
    200: { description: 'The product.', schema: productSchema },
    400: { description: 'Neither or both of ID and Name, or an ID that is not a positive integer.' },
    404: { description: 'No such product.' },
  },
} as const satisfies Operation;
