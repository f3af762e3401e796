// GET /api/v2/ota/partner/webhooks: the caller's partner's endpoints, whether each is disabled and since when it fails.
import type { Operation } from '../operation.js';
import { webhookEndpointSchema, webhookTags } from './webhook.schemas.js';

export const listWebhookEndpointsOperation = {
  operationId: 'listWebhookEndpoints',
  method: 'get',
  path: '/api/v2/ota/partner/webhooks',
  summary: "The partner's webhook endpoints",
  description: 'Oldest first. Secrets are not listed: they are shown once, when the endpoint is registered.',
  tags: webhookTags,
  scope: 'ota',
  responses: { 200: { description: 'The endpoints.', schema: { type: 'array', items: webhookEndpointSchema } } },
} as const satisfies Operation;
