// GET /api/v2/operator/activities: every activity of the account, offered in the shopfront or not.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { productSchema } from '../partner/shared.schemas.js';
import { operatorTags } from './shared.schemas.js';

export const operatorActivitySchema = {
  ...productSchema,
  required: [...productSchema.required, 'Active', 'InShopfront'],
  properties: {
    ...productSchema.properties,
    Active: { type: 'boolean', description: 'Bookable at all (point of sale included).' },
    InShopfront: { type: 'boolean', description: 'Offered to partners; hidden activities are still sold at the point of sale.' },
  },
} as const;
export type OperatorActivity = FromSchema<typeof operatorActivitySchema>;

export const listOperatorActivitiesOperation = {
  operationId: 'listOperatorActivities',
  method: 'get',
  path: '/api/v2/operator/activities',
  summary: "List the account's activities",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  responses: { 200: { description: 'Ordered by name.', schema: { type: 'array', items: operatorActivitySchema } } },
} as const satisfies Operation;
