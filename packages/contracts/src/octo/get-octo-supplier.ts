// GET /octo/supplier: the operator account as OCTO's supplier (its name and contact).
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { octoErrorResponses, octoTags } from './octo.schemas.js';

export const octoSupplierSchema = {
  type: 'object',
  required: ['id', 'name', 'endpoint', 'contact'],
  properties: {
    id: { type: 'string', description: 'The account id.' },
    name: { type: 'string' },
    endpoint: { type: 'string', description: 'The base URL of this OCTO API.' },
    contact: {
      type: 'object',
      required: ['website', 'email', 'telephone', 'address'],
      properties: {
        website: { type: ['string', 'null'] },
        email: { type: ['string', 'null'] },
        telephone: { type: ['string', 'null'] },
        address: { type: ['string', 'null'] },
      },
    },
  },
} as const;
export type OctoSupplier = FromSchema<typeof octoSupplierSchema>;

export const getOctoSupplierOperation = {
  operationId: 'getOctoSupplier',
  method: 'get',
  path: '/octo/supplier',
  summary: 'OCTO: the supplier',
  description: 'The operator account whose inventory the key sells, with the contact details the account gives.',
  tags: octoTags,
  scope: 'ota',
  responses: { 200: { description: 'The supplier.', schema: octoSupplierSchema }, ...octoErrorResponses },
} as const satisfies Operation;
