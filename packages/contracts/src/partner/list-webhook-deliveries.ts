// GET /api/v2/ota/partner/webhooks/{ID}/deliveries: an endpoint's deliveries with every attempt, newest first,
// keyset-paged.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { notFoundWebhookEndpoint, WEBHOOK_DELIVERY_STATUSES, webhookDeliverySchema, webhookEndpointParams, webhookTags } from './webhook.schemas.js';

export const listWebhookDeliveriesQuerySchema = {
  type: 'object',
  properties: {
    Status: { type: 'string', enum: WEBHOOK_DELIVERY_STATUSES, 'x-message': `must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}.` },
    Limit: { type: 'integer', minimum: 1, maximum: 200, description: 'Deliveries per page, 1 to 200 (default 50).' },
    Cursor: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: '^[A-Za-z0-9_-]+$',
      'x-message': 'must be the Next of an earlier answer.',
      description: 'The `Next` of the previous page; leave out for the first page.',
    },
  },
} as const;
export type ListWebhookDeliveriesQuery = FromSchema<typeof listWebhookDeliveriesQuerySchema>;

export const webhookDeliveriesPageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Deliveries', 'Next'],
  properties: {
    Deliveries: { type: 'array', items: webhookDeliverySchema },
    Next: { type: ['string', 'null'], description: 'Cursor of the next page; null on the last page.' },
  },
} as const;
export type WebhookDeliveriesPage = FromSchema<typeof webhookDeliveriesPageSchema>;

export const listWebhookDeliveriesOperation = {
  operationId: 'listWebhookDeliveries',
  method: 'get',
  path: '/api/v2/ota/partner/webhooks/:ID/deliveries',
  summary: "An endpoint's deliveries and their attempts",
  description: 'Newest first, optionally only those with Status. Keyset-paged: pass `Next` as `Cursor`; deliveries made meanwhile never shift later pages.',
  tags: webhookTags,
  scope: 'ota',
  params: webhookEndpointParams,
  query: listWebhookDeliveriesQuerySchema,
  responses: {
    200: { description: 'One page of deliveries.', schema: webhookDeliveriesPageSchema },
    400: { description: 'ID is not a UUID.' },
    404: notFoundWebhookEndpoint,
    422: { description: 'Status not a delivery status, Limit outside 1..200, or a Cursor this API did not give.' },
  },
} as const satisfies Operation;
