// GET /api/v2/shop/:Slug/activities/:ActivityID: one activity of the page's shopfront with the waiver questions the
// customer answers before Book.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { questionSchema } from '../partner/shared.schemas.js';
import { notFoundPage, shopActivityParams, shopActivitySchema, shopRateLimited, shopTags } from './shared.schemas.js';

export const shopActivityDetailsSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...shopActivitySchema.required, 'Questions'],
  properties: {
    ...shopActivitySchema.properties,
    Questions: { type: 'array', items: questionSchema, description: 'The waiver questions, in display order.' },
  },
} as const;
export type ShopActivityDetails = FromSchema<typeof shopActivityDetailsSchema>;

export const getShopActivityOperation = {
  operationId: 'getShopActivity',
  method: 'get',
  path: '/api/v2/shop/:Slug/activities/:ActivityID',
  summary: 'One activity of a booking page, with its waiver questions',
  description: 'Public (no API key).',
  tags: shopTags,
  auth: 'public',
  params: shopActivityParams,
  responses: {
    200: { description: 'The activity.', schema: shopActivityDetailsSchema },
    400: { description: 'Slug or ActivityID malformed.' },
    404: notFoundPage,
    429: shopRateLimited,
  },
} as const satisfies Operation;
