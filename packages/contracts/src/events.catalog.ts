// The job catalog: every queue, every job name on it, its payload schema, attempts and backoff.
// Queue and job names are frozen: renaming one strands the jobs already queued under the old name.
// Payloads only ever gain optional members, because jobs published before a deploy run after it.
import type { FromSchema } from 'json-schema-to-ts';
import { unixSecondsSchema, uuidSchema } from './common.schemas.js';

const envelope = {
  EventID: { ...uuidSchema, description: 'Unique id of the event; publishing it again never counts twice.' },
  AccountID: { ...uuidSchema, description: 'Operator account the event belongs to.' },
  OccurredAt: { ...unixSecondsSchema, description: 'When the event happened, Unix seconds.' },
} as const;

export const orderCompletedPayloadSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['EventID', 'AccountID', 'OccurredAt', 'BasketID'],
  properties: {
    ...envelope,
    BasketID: { type: ['string', 'integer'], minLength: 1, maxLength: 255, description: 'ID of the completed basket.' },
  },
} as const;

export const waitlistNotifiedPayloadSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['EventID', 'AccountID', 'OccurredAt', 'WaitlistID', 'MultiBookingID'],
  properties: {
    ...envelope,
    WaitlistID: { type: ['string', 'integer'], minLength: 1, maxLength: 255, description: 'ID of the waitlist entry.' },
    MultiBookingID: { type: ['string', 'integer'], minLength: 1, maxLength: 255, description: 'ID of the booking.' },
  },
} as const;

export const workflowEmailSentPayloadSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['EventID', 'AccountID', 'OccurredAt'],
  properties: { ...envelope },
} as const;

export const bookingCreatedPayloadSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['EventID', 'AccountID', 'OccurredAt', 'Reference', 'ActivityID', 'Date', 'Time', 'Participants', 'Channel'],
  properties: {
    ...envelope,
    Reference: { type: 'string' },
    ActivityID: uuidSchema,
    Date: { type: 'string' },
    Time: { type: 'string' },
    Participants: { type: 'integer', minimum: 1 },
    Channel: { type: 'string', enum: ['ota', 'online', 'pos'] },
    PaymentReference: { type: ['string', 'null'] },
  },
} as const;

export type OrderCompletedPayload = FromSchema<typeof orderCompletedPayloadSchema>;
export type WaitlistNotifiedPayload = FromSchema<typeof waitlistNotifiedPayloadSchema>;
export type WorkflowEmailSentPayload = FromSchema<typeof workflowEmailSentPayloadSchema>;
export type BookingCreatedPayload = FromSchema<typeof bookingCreatedPayloadSchema>;

const retried = { attempts: 8, backoff: { type: 'exponential', delay: 1000 } } as const;

export const QUEUES = {
  platformEvents: 'platform-events',
  bookingEvents: 'booking-events',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** Every job the system publishes. The key is the job name on its queue. */
export const JOBS = {
  'order.completed': { queue: QUEUES.platformEvents, schema: orderCompletedPayloadSchema, meter: 'order-completed', ...retried },
  'waitlist.notified': { queue: QUEUES.platformEvents, schema: waitlistNotifiedPayloadSchema, meter: 'waitlist-notified', ...retried },
  'workflow-email.sent': { queue: QUEUES.platformEvents, schema: workflowEmailSentPayloadSchema, meter: 'workflow-email-sent', ...retried },
  'booking.created': { queue: QUEUES.bookingEvents, schema: bookingCreatedPayloadSchema, meter: null, ...retried },
} as const;

export type JobName = keyof typeof JOBS;
export interface JobPayloads {
  'order.completed': OrderCompletedPayload;
  'waitlist.notified': WaitlistNotifiedPayload;
  'workflow-email.sent': WorkflowEmailSentPayload;
  'booking.created': BookingCreatedPayload;
}
/** The platform events that become built-in meter entries. */
export const PLATFORM_EVENT_NAMES = ['order.completed', 'waitlist.notified', 'workflow-email.sent'] as const;
export type PlatformEventName = (typeof PLATFORM_EVENT_NAMES)[number];
export const BUILT_IN_METERS = ['order-completed', 'waitlist-notified', 'workflow-email-sent'] as const;
