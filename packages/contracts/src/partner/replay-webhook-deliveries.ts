// POST /api/v2/ota/partner/webhooks/{ID}/replay: replay every failed delivery of an endpoint made since an instant,
// for a receiver that is back after an outage.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { notFoundWebhookEndpoint, webhookEndpointParams, webhookTags } from './webhook.schemas.js';

export const replayWebhookDeliveriesRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Since'],
  properties: {
    Since: {
      type: 'string',
      format: 'date-time',
      'x-message': 'must be an ISO 8601 instant with its offset, such as 2027-05-01T09:00:00Z.',
      description: 'Failed deliveries created at or after this instant are replayed.',
    },
  },
} as const;
export type ReplayWebhookDeliveriesRequest = FromSchema<typeof replayWebhookDeliveriesRequestSchema>;

export const replayedWebhookDeliveriesSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Replayed'],
  properties: { Replayed: { type: 'integer', description: 'How many failed deliveries were queued again.' } },
} as const;
export type ReplayedWebhookDeliveries = FromSchema<typeof replayedWebhookDeliveriesSchema>;

export const replayWebhookDeliveriesOperation = {
  operationId: 'replayWebhookDeliveries',
  method: 'post',
  path: '/api/v2/ota/partner/webhooks/:ID/replay',
  summary: 'Replay failed deliveries since an instant',
  description: 'Every failed delivery of the endpoint created at or after Since goes back to pending and is queued. Enables a disabled endpoint again.',
  tags: webhookTags,
  scope: 'ota',
  params: webhookEndpointParams,
  body: replayWebhookDeliveriesRequestSchema,
  responses: {
    202: { description: 'Queued.', schema: replayedWebhookDeliveriesSchema },
    400: { description: 'ID is not a UUID.' },
    404: notFoundWebhookEndpoint,
    422: { description: 'Since is not an instant.' },
    503: { description: 'The delivery queue did not take the jobs; the deliveries not queued stay failed, and the request may be retried.' },
  },
} as const satisfies Operation;
