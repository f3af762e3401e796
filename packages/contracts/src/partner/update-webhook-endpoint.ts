// PATCH /api/v2/ota/partner/webhooks/{ID}: change an endpoint's URL or event types. The URL is vetted as at
// registration; the update enables a disabled endpoint again (the partner has acted on the reason it was disabled).
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { createWebhookEndpointRequestSchema } from './create-webhook-endpoint.js';
import { notFoundWebhookEndpoint, webhookEndpointParams, webhookEndpointSchema, webhookTags } from './webhook.schemas.js';

export const updateWebhookEndpointRequestSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: createWebhookEndpointRequestSchema.properties,
} as const;
export type UpdateWebhookEndpointRequest = FromSchema<typeof updateWebhookEndpointRequestSchema>;

export const updateWebhookEndpointOperation = {
  operationId: 'updateWebhookEndpoint',
  method: 'patch',
  path: '/api/v2/ota/partner/webhooks/:ID',
  summary: 'Change a webhook endpoint, or enable it again',
  description:
    'Only the members sent change; the secret stays. The URL (the new one, else the one registered) is vetted as at registration. ' +
    'The endpoint is enabled again and its run of failures forgotten: send its Url unchanged to enable a disabled endpoint after fixing what its ' +
    'DisabledReason names. Deliveries that failed while it was disabled are not sent by this; replay them (POST …/webhooks/{ID}/replay).',
  tags: webhookTags,
  scope: 'ota',
  params: webhookEndpointParams,
  body: updateWebhookEndpointRequestSchema,
  responses: {
    200: { description: 'The endpoint as it is now, enabled.', schema: webhookEndpointSchema },
    400: { description: 'ID is not a UUID.' },
    404: notFoundWebhookEndpoint,
    422: {
      description:
        'An empty or invalid body, an unknown event type, or a URL refused (not https, credentials in it, a host that is or resolves to a non-public address).',
    },
  },
} as const satisfies Operation;
