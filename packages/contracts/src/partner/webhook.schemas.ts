// Schemas the partner webhook operations share: an endpoint as listed, a delivery with its attempts, the path
// parameters. Member names are PascalCase as in the rest of the partner contract.
import type { FromSchema } from 'json-schema-to-ts';
import { uuidSchema } from '../common.schemas.js';
import { WEBHOOK_EVENT_TYPES } from '../webhooks.catalog.js';

export const webhookTags = ['Webhooks'] as const;

export const webhookEventTypeSchema = {
  type: 'string',
  enum: WEBHOOK_EVENT_TYPES,
  'x-message': `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
} as const;

const instantOrNull = { type: ['string', 'null'], format: 'date-time' } as const;

export const webhookEndpointSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ID', 'Url', 'EventTypes', 'CreatedAt', 'Disabled', 'DisabledAt', 'DisabledReason', 'FailingSince'],
  properties: {
    ID: uuidSchema,
    Url: { type: 'string', description: 'Where the events are POSTed, as normalised at registration.' },
    EventTypes: { type: 'array', items: webhookEventTypeSchema },
    CreatedAt: { type: 'string', format: 'date-time' },
    Disabled: {
      type: 'boolean',
      description:
        'True once the endpoint failed every attempt for 5 days, or at once when its destination was refused; updating the endpoint or replaying a delivery enables it again.',
    },
    DisabledAt: { ...instantOrNull, description: 'When it was disabled; null while enabled.' },
    DisabledReason: { type: ['string', 'null'], description: 'Why it was disabled: since when every attempt failed, or why its destination was refused.' },
    FailingSince: { ...instantOrNull, description: 'Start of the current unbroken run of failed attempts; null after a success.' },
  },
} as const;
export type WebhookEndpoint = FromSchema<typeof webhookEndpointSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookAttemptSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['AttemptedAt', 'StatusCode', 'DurationMs', 'Error', 'ResponseExcerpt'],
  properties: {
    AttemptedAt: { type: 'string', format: 'date-time' },
    StatusCode: { type: ['integer', 'null'], description: "The endpoint's HTTP status; null when it gave none (refused, timed out)." },
    DurationMs: { type: 'integer' },
    Error: { type: ['string', 'null'], description: 'Why the attempt failed without an HTTP answer, or what was wrong with it.' },
    ResponseExcerpt: { type: ['string', 'null'], description: "The start of the endpoint's answer." },
  },
} as const;

export const webhookDeliverySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ID', 'EventID', 'EventType', 'Status', 'AttemptCount', 'NextAttemptAt', 'CreatedAt', 'DeliveredAt', 'FailedAt', 'Attempts'],
  properties: {
    ID: uuidSchema,
    EventID: { ...uuidSchema, description: "The event's id, sent as the `webhook-id` header: receivers drop repeats by it." },
    EventType: webhookEventTypeSchema,
    Status: { type: 'string', enum: WEBHOOK_DELIVERY_STATUSES },
    AttemptCount: { type: 'integer' },
    NextAttemptAt: { ...instantOrNull, description: 'When a pending delivery is tried next.' },
    CreatedAt: { type: 'string', format: 'date-time' },
    DeliveredAt: instantOrNull,
    FailedAt: { ...instantOrNull, description: 'When the last retry failed; the delivery is kept and may be replayed.' },
    Attempts: { type: 'array', items: webhookAttemptSchema, description: 'Every attempt, oldest first.' },
  },
} as const;
export type WebhookDelivery = FromSchema<typeof webhookDeliverySchema>;

export const webhookEndpointParams = {
  type: 'object',
  required: ['ID'],
  properties: { ID: { ...uuidSchema, 'x-message': 'must be a webhook endpoint ID (a UUID).' } },
} as const;

export const webhookDeliveryParams = {
  type: 'object',
  required: ['ID', 'DeliveryID'],
  properties: { ...webhookEndpointParams.properties, DeliveryID: { ...uuidSchema, 'x-message': 'must be a delivery ID (a UUID).' } },
} as const;

export const notFoundWebhookEndpoint = { description: "No webhook endpoint with this ID registered by the caller's partner." } as const;
