// DELETE /api/v2/ota/partner/webhooks/{ID}: stop delivering to an endpoint; its deliveries go with it.
import type { Operation } from '../operation.js';
import { notFoundWebhookEndpoint, webhookEndpointParams, webhookTags } from './webhook.schemas.js';

export const deleteWebhookEndpointOperation = {
  operationId: 'deleteWebhookEndpoint',
  method: 'delete',
  path: '/api/v2/ota/partner/webhooks/:ID',
  summary: 'Delete a webhook endpoint',
  description: 'Deletes the endpoint with its deliveries and their attempts; a delivery already being attempted may still arrive once.',
  tags: webhookTags,
  scope: 'ota',
  params: webhookEndpointParams,
  responses: {
    204: { description: 'Deleted.' },
    400: { description: 'ID is not a UUID.' },
    404: notFoundWebhookEndpoint,
  },
} as const satisfies Operation;
