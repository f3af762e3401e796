// GET /octo/products: the activities of the operator's shopfront as OCTO products.
import type { Operation } from '../operation.js';
import { octoProductSchema } from './octo-product.schemas.js';
import { octoErrorResponses, octoTags } from './octo.schemas.js';

export const listOctoProductsOperation = {
  operationId: 'listOctoProducts',
  method: 'get',
  path: '/octo/products',
  summary: 'OCTO: list products',
  description: 'Every active activity offered in the shopfront, ordered by name: one default option, its units (ADULT).',
  tags: octoTags,
  scope: 'ota',
  responses: { 200: { description: 'The products.', schema: { type: 'array', items: octoProductSchema } }, ...octoErrorResponses },
} as const satisfies Operation;
