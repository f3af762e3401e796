// POST /api/v2/ota/partner/webhooks/{ID}/deliveries/{DeliveryID}/replay: deliver a failed (or delivered) delivery
// again, with a fresh run of retries.
import type { Operation } from '../operation.js';
import { notFoundWebhookEndpoint, webhookDeliveryParams, webhookDeliverySchema, webhookTags } from './webhook.schemas.js';

export const replayWebhookDeliveryOperation = {
  operationId: 'replayWebhookDelivery',
  method: 'post',
  path: '/api/v2/ota/partner/webhooks/:ID/deliveries/:DeliveryID/replay',
  summary: 'Replay a delivery',
  description:
    'Puts a failed or delivered delivery back to pending and queues it at once, with the same `webhook-id`. ' +
    "Replaying a disabled endpoint's delivery enables the endpoint again.",
  tags: webhookTags,
  scope: 'ota',
  params: webhookDeliveryParams,
  responses: {
    202: { description: 'Queued; the delivery as it is now.', schema: webhookDeliverySchema },
    400: { description: 'ID or DeliveryID is not a UUID.' },
    404: { description: `${notFoundWebhookEndpoint.description} Or no such delivery of that endpoint.` },
    409: { description: '`/invalid-transition`: the delivery is still pending.' },
    503: { description: 'The delivery queue did not take the job; nothing changed, and the request may be retried.' },
  },
} as const satisfies Operation;
