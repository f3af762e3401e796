// POST /api/v2/platform/events: the HTTP door for platform events, for services not written in Node (Node services
// use @backbone/publisher). The event's own members (Data) reuse the catalog's schemas, so the two doors accept
// exactly the same events; the account comes from the API key.
import type { FromSchema } from 'json-schema-to-ts';
import { unixSecondsSchema, uuidSchema } from '../common.schemas.js';
import { orderCompletedPayloadSchema, PLATFORM_EVENT_NAMES, waitlistNotifiedPayloadSchema } from '../events.catalog.js';
import type { Operation } from '../operation.js';

const uuidMember = { ...uuidSchema, 'x-message': 'must be a UUID in canonical 8-4-4-4-12 hex form.' } as const;

const orderCompletedData = {
  type: 'object',
  additionalProperties: false,
  required: ['BasketID'],
  properties: { BasketID: orderCompletedPayloadSchema.properties.BasketID },
} as const;

const waitlistNotifiedData = {
  type: 'object',
  additionalProperties: false,
  required: ['WaitlistID', 'MultiBookingID'],
  properties: {
    WaitlistID: waitlistNotifiedPayloadSchema.properties.WaitlistID,
    MultiBookingID: waitlistNotifiedPayloadSchema.properties.MultiBookingID,
  },
} as const;

const workflowEmailSentData = { type: 'object', additionalProperties: false, properties: {} } as const;

/** `Data` is required and checked against the event's own members once `Type` names the event. */
function dataFor<const T extends string, const S extends object>(type: T, data: S, required: boolean) {
  return {
    if: { required: ['Type'], properties: { Type: { const: type } } },
    then: { ...(required ? { required: ['Data'] } : {}), properties: { Data: data } },
  } as const;
}

export const platformEventRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Type', 'EventID'],
  properties: {
    Type: { type: 'string', enum: PLATFORM_EVENT_NAMES, description: 'The event: order.completed, waitlist.notified or workflow-email.sent.' },
    EventID: { ...uuidMember, description: 'Unique id of the event, chosen by the publisher. Publishing the same EventID again is accepted and counted once.' },
    AccountID: { ...uuidMember, description: "Optional. The account is the API key's; when sent, it must be that account (else 422)." },
    OccurredAt: {
      ...unixSecondsSchema,
      'x-message': 'must be an integer Unix timestamp in seconds (0 to 253402300799).',
      description: 'When the event happened, Unix seconds. Default: the time the event is received.',
    },
    Data: {
      type: 'object',
      description:
        "The event's own members: order.completed {BasketID}; waitlist.notified {WaitlistID, MultiBookingID}; workflow-email.sent none (omit Data or send {}). " +
        'IDs are strings (1 to 255 characters) or integers.',
    },
  },
  allOf: [
    dataFor('order.completed', orderCompletedData, true),
    dataFor('waitlist.notified', waitlistNotifiedData, true),
    dataFor('workflow-email.sent', workflowEmailSentData, false),
  ],
} as const;

export const platformEventAcceptedSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      additionalProperties: false,
      required: ['EventID', 'Type', 'AccountID', 'OccurredAt'],
      properties: {
        EventID: { ...uuidSchema, description: 'The EventID, in lower case.' },
        Type: { type: 'string', enum: PLATFORM_EVENT_NAMES },
        AccountID: uuidSchema,
        OccurredAt: unixSecondsSchema,
      },
    },
  },
} as const;
export type PlatformEventRequest = FromSchema<typeof platformEventRequestSchema>;
export type PlatformEventAccepted = FromSchema<typeof platformEventAcceptedSchema>;

export const publishPlatformEventOperation = {
  operationId: 'publishPlatformEvent',
  method: 'post',
  path: '/api/v2/platform/events',
  summary: 'Publish a platform event',
  description:
    'Queues a platform event for the metering worker, which records it as one entry of its built-in meter ' +
    "(order-completed, waitlist-notified, workflow-email-sent) with Usage 1 and OccurredAt the event's time. " +
    'The event is validated before it is queued; a malformed one is refused with 422 and nothing is queued. ' +
    'One EventID makes one entry, however often it is published: a retry after a timeout is safe.',
  tags: ['Platform events'],
  scope: 'platform:events',
  body: platformEventRequestSchema,
  responses: {
    202: { description: 'Accepted: the event is queued and will be recorded (or was already).', schema: platformEventAcceptedSchema },
    422: { description: "Invalid event: the detail names the member (Data members as Data.BasketID); also an AccountID that is not the key's account." },
    503: { description: 'The event queue (Redis) is unreachable; nothing was queued, retry later.' },
  },
} as const satisfies Operation;
