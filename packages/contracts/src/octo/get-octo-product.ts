// GET /octo/products/{productId}: one product; an id that is not one of the shopfront's activities is INVALID_PRODUCT_ID.
import type { Operation } from '../operation.js';
import { octoProductSchema } from './octo-product.schemas.js';
import { octoErrorResponses, octoTags } from './octo.schemas.js';

export const getOctoProductOperation = {
  operationId: 'getOctoProduct',
  method: 'get',
  path: '/octo/products/:productId',
  summary: 'OCTO: get a product',
  tags: octoTags,
  scope: 'ota',
  params: { type: 'object', required: ['productId'], properties: { productId: { type: 'string' } } },
  responses: { 200: { description: 'The product.', schema: octoProductSchema }, ...octoErrorResponses },
} as const satisfies Operation;
