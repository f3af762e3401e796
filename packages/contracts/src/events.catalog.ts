// The job catalog: every queue, every job name on it, its payload schema, attempts and backoff.
// Queue and job names are frozen: renaming one strands the jobs already queued under the old name.
// Payloads only ever gain optional members, because jobs published before a deploy run after it.
import type { FromSchema } from 'json-schema-to-ts';
import { BOOKING_CHANNELS, BOOKING_STATUSES, unixSecondsSchema, uuidSchema, type BookingStatus } from './common.schemas.js';

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

/** What every booking event says of the booking: the partner that made it, its reference, its new status and when. */
const bookingChange = {
  properties: {
    PartnerID: { ...uuidSchema, description: "The partner that made the booking; absent for the operator's channels." },
    Reference: { type: 'string' },
    Status: { type: 'string', enum: BOOKING_STATUSES },
    UpdatedAt: { type: 'string', format: 'date-time', description: 'When the booking took this state: the newer of two events has the later UpdatedAt.' },
    Test: { type: 'boolean', enum: [true], description: 'A sandbox booking (made with a test key); absent for live bookings.' },
  },
} as const;

export const bookingCreatedPayloadSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['EventID', 'AccountID', 'OccurredAt', 'Reference', 'ActivityID', 'Date', 'Time', 'Participants', 'Channel'],
  properties: {
    ...envelope,
    ...bookingChange.properties,
    ActivityID: uuidSchema,
    Date: { type: 'string' },
    Time: { type: 'string' },
    Participants: { type: 'integer', minimum: 1 },
    Channel: { type: 'string', enum: BOOKING_CHANNELS },
    PaymentReference: { type: ['string', 'null'] },
  },
} as const;

/** A booking that changed state: confirmed (a hold confirmed) or expired (a hold not confirmed in time). */
const bookingStatusEvent = <const S extends BookingStatus>(status: S) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['EventID', 'AccountID', 'OccurredAt', 'Reference', 'Status'],
    properties: { ...envelope, ...bookingChange.properties, Status: { type: 'string', enum: [status] } },
  }) as const;

export const bookingConfirmedPayloadSchema = bookingStatusEvent('confirmed');
export const bookingExpiredPayloadSchema = bookingStatusEvent('expired');

export const bookingCancelledPayloadSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['EventID', 'AccountID', 'OccurredAt', 'Reference', 'Status', 'CancelledAt'],
  properties: {
    ...envelope,
    ...bookingChange.properties,
    Status: { type: 'string', enum: ['cancelled'] },
    CancelledAt: { type: 'string', format: 'date-time' },
    Reason: { type: ['string', 'null'] },
  },
} as const;

/** The members a change may touch, as booking.updated names them. */
export const BOOKING_CHANGE_MEMBERS = ['ActivityID', 'Date', 'Time', 'Participants', 'Customer', 'Answers', 'Note', 'PaymentReference', 'Price'] as const;
export type BookingChangeMember = (typeof BOOKING_CHANGE_MEMBERS)[number];

/** A live booking changed (moved, another party size, customer, answers, note, payment reference): its timeslot now, and the one before. */
export const bookingUpdatedPayloadSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['EventID', 'AccountID', 'OccurredAt', 'Reference', 'Status', 'ActivityID', 'Date', 'Time', 'Participants', 'Changed', 'Previous'],
  properties: {
    ...envelope,
    ...bookingChange.properties,
    Status: { type: 'string', enum: ['on_hold', 'confirmed'] },
    ActivityID: uuidSchema,
    Date: { type: 'string' },
    Time: { type: 'string' },
    Participants: { type: 'integer', minimum: 1 },
    Changed: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { type: 'string', enum: BOOKING_CHANGE_MEMBERS },
      description: 'What this change touched.',
    },
    Previous: {
      type: 'object',
      additionalProperties: false,
      required: ['ActivityID', 'Date', 'Time', 'Participants'],
      description: "The booking's timeslot and party size before this change.",
      properties: { ActivityID: uuidSchema, Date: { type: 'string' }, Time: { type: 'string' }, Participants: { type: 'integer', minimum: 1 } },
    },
  },
} as const;

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
  'booking.confirmed': { queue: QUEUES.bookingEvents, schema: bookingConfirmedPayloadSchema, meter: null, ...retried },
  'booking.cancelled': { queue: QUEUES.bookingEvents, schema: bookingCancelledPayloadSchema, meter: null, ...retried },
  'booking.expired': { queue: QUEUES.bookingEvents, schema: bookingExpiredPayloadSchema, meter: null, ...retried },
  'booking.updated': { queue: QUEUES.bookingEvents, schema: bookingUpdatedPayloadSchema, meter: null, ...retried },
} as const;

export type JobName = keyof typeof JOBS;
type JobPayloadMap = { [N in JobName]: FromSchema<(typeof JOBS)[N]['schema']> };
/**
 * The payload of each job, from its schema. An interface rather than the mapped type itself: for a generic N,
 * `JobPayloads[N]` then stays an indexed access, where the mapped type would become FromSchema of every schema at
 * once (TS2589).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the members come from the mapped type
export interface JobPayloads extends JobPayloadMap {}
export type OrderCompletedPayload = JobPayloads['order.completed'];
export type WaitlistNotifiedPayload = JobPayloads['waitlist.notified'];
export type WorkflowEmailSentPayload = JobPayloads['workflow-email.sent'];
export type BookingCreatedPayload = JobPayloads['booking.created'];
export type BookingUpdatedPayload = JobPayloads['booking.updated'];

/** The platform events: the jobs that become entries of a built-in meter (their meter is not null). */
export type PlatformEventName = { [N in JobName]: (typeof JOBS)[N]['meter'] extends null ? never : N }[JobName];
export type BuiltInMeter = (typeof JOBS)[PlatformEventName]['meter'];

const isPlatformEvent = (name: JobName): name is PlatformEventName => JOBS[name].meter !== null;
/** The platform event names, in catalog order. */
export const PLATFORM_EVENT_NAMES: readonly PlatformEventName[] = (Object.keys(JOBS) as JobName[]).filter(isPlatformEvent);
/** Their meters, in the same order. */
export const BUILT_IN_METERS: readonly BuiltInMeter[] = PLATFORM_EVENT_NAMES.map((name) => JOBS[name].meter);
