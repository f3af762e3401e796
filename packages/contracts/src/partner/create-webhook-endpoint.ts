// POST /api/v2/ota/partner/webhooks: register an endpoint for the partner's booking events. The URL is vetted
// against server-side request forgery; the signing secret is in this answer and never again.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { MAX_WEBHOOK_ENDPOINTS_PER_PARTNER } from '../webhooks.catalog.js';
import { webhookEndpointSchema, webhookEventTypeSchema, webhookTags } from './webhook.schemas.js';

export const createWebhookEndpointRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Url'],
  properties: {
    Url: {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description: 'An https URL whose host resolves only to public addresses (plain http only to hosts the service allows).',
    },
    EventTypes: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      uniqueItems: true,
      items: webhookEventTypeSchema,
      description: 'The event types to deliver; every booking event type when left out.',
    },
  },
} as const;
export type CreateWebhookEndpointRequest = FromSchema<typeof createWebhookEndpointRequestSchema>;

export const createdWebhookEndpointSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ID', 'Url', 'EventTypes', 'CreatedAt', 'Secret'],
  properties: {
    ID: webhookEndpointSchema.properties.ID,
    Url: webhookEndpointSchema.properties.Url,
    EventTypes: webhookEndpointSchema.properties.EventTypes,
    CreatedAt: webhookEndpointSchema.properties.CreatedAt,
    Secret: {
      type: 'string',
      description: 'The Standard Webhooks signing secret (`whsec_` + base64). Shown only in this answer: keep it to verify `webhook-signature`.',
    },
  },
} as const;
export type CreatedWebhookEndpoint = FromSchema<typeof createdWebhookEndpointSchema>;

export const createWebhookEndpointOperation = {
  operationId: 'createWebhookEndpoint',
  method: 'post',
  path: '/api/v2/ota/partner/webhooks',
  summary: 'Register a webhook endpoint',
  description:
    'Booking events of the caller\'s partner are POSTed to Url as `{ "type", "timestamp", "data" }`, signed per the Standard Webhooks specification, ' +
    `at least once. At most ${MAX_WEBHOOK_ENDPOINTS_PER_PARTNER} endpoints a partner.`,
  tags: webhookTags,
  scope: 'ota',
  body: createWebhookEndpointRequestSchema,
  responses: {
    201: { description: 'Registered; the answer carries the signing secret, shown only here.', schema: createdWebhookEndpointSchema },
    409: { description: `\`/webhook-endpoint-limit\`: the partner already has ${MAX_WEBHOOK_ENDPOINTS_PER_PARTNER} endpoints.` },
    422: {
      description: 'Invalid body, an unknown event type, or a URL refused (not https, credentials in it, a host that is or resolves to a non-public address).',
    },
  },
} as const satisfies Operation;
