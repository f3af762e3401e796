// GET /api/v2/ota/partner/products: the products offered in the operator's shopfront.
import type { Operation } from '../operation.js';
import { partnerTags, productSchema, visibleText } from './shared.schemas.js';

export const listProductsOperation = {
  operationId: 'listProducts',
  method: 'get',
  path: '/api/v2/ota/partner/products',
  summary: "List the activities offered in the operator's shopfront",
  description:
    'Active activities offered in the shopfront, ordered by Name (case-insensitive), then ID. Carries an ETag and `Cache-Control: private, max-age=60`; send the ETag back in If-None-Match to get 304 when nothing changed.',
  tags: partnerTags,
  scope: 'ota',
  query: {
    type: 'object',
    properties: {
      name: { ...visibleText(200), description: 'Only products whose Name contains this text (case-insensitive).' },
    },
  },
  responses: {
    200: {
      description: 'The products.',
      schema: { type: 'array', items: productSchema },
      headers: { ETag: { description: 'Strong validator of this list.' }, 'Cache-Control': { description: 'private, max-age=60' } },
    },
    304: { description: 'Not modified: the If-None-Match validator still matches.' },
    422: { description: 'Invalid name filter.' },
  },
} as const satisfies Operation;
