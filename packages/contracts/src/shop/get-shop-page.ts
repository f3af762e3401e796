// GET /api/v2/shop/:Slug: an account's booking page: who sells, in which currency, locale and time zone, the note and
// terms the operator shows before Book, and the activities of its shopfront (hidden ones never).
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { notFoundPage, shopActivitySchema, shopParams, shopRateLimited, shopTags } from './shared.schemas.js';

export const shopPageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Slug', 'AccountName', 'Currency', 'Locale', 'TimeZone', 'Note', 'Terms', 'PaymentMethod', 'Activities'],
  properties: {
    Slug: { type: 'string' },
    AccountName: { type: 'string', description: 'The operator, as the page names it.' },
    Currency: { type: ['string', 'null'], pattern: '^[A-Z]{3}$', description: "ISO 4217 currency of the shopfront's prices; null when it has no activity." },
    Locale: { type: 'string', description: 'BCP 47 locale to format prices, dates and times in (en-GB).' },
    TimeZone: { type: 'string', description: "The account's IANA time zone." },
    Note: { type: 'string', description: "The operator's note shown on the page (empty: none)." },
    Terms: { type: 'string', description: 'Terms the customer accepts with Book (empty: none).' },
    PaymentMethod: { type: 'string', enum: ['pay_at_venue'], description: 'How the customer pays: at the venue (no payment is taken online).' },
    Activities: { type: 'array', items: shopActivitySchema, description: 'The shopfront, by name.' },
  },
} as const;
export type ShopPage = FromSchema<typeof shopPageSchema>;

export const getShopPageOperation = {
  operationId: 'getShopPage',
  method: 'get',
  path: '/api/v2/shop/:Slug',
  summary: "An operator's booking page",
  description: 'Public (no API key). The page and the activities of its shopfront.',
  tags: shopTags,
  auth: 'public',
  params: shopParams,
  responses: {
    200: { description: 'The page.', schema: shopPageSchema },
    400: { description: 'Slug is not a slug.' },
    404: notFoundPage,
    429: shopRateLimited,
  },
} as const satisfies Operation;
