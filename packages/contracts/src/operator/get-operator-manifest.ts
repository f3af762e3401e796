// GET /api/v2/operator/manifest: the day's timeslots by time, each with its live bookings and totals (the door list).
import type { FromSchema } from 'json-schema-to-ts';
import { BOOKING_CHANNELS, BOOKING_STATUSES, bookingCustomerSchema, calendarDateSchema, clockTimeSchema, uuidSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { operatorBookingPriceSchema } from './list-operator-bookings.js';
import { operatorTags } from './shared.schemas.js';

const totalsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Bookings', 'Participants', 'CheckedIn'],
  properties: {
    Bookings: { type: 'integer' },
    Participants: { type: 'integer' },
    CheckedIn: { type: 'integer', description: 'Participants checked in (of a party partly arrived, those who did).' },
  },
} as const;

export const manifestBookingSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'Reference',
    'Status',
    'Customer',
    'Participants',
    'Channel',
    'Partner',
    'WaiversComplete',
    'CheckedInAt',
    'CheckedInParticipants',
    'Note',
    'Price',
  ],
  properties: {
    Reference: { type: 'string' },
    Status: { type: 'string', enum: BOOKING_STATUSES },
    Customer: bookingCustomerSchema,
    Participants: { type: 'integer' },
    Channel: { type: 'string', enum: BOOKING_CHANNELS },
    Partner: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['ID', 'Name'],
      properties: { ID: uuidSchema, Name: { type: 'string' } },
      description: 'The partner that made an ota booking.',
    },
    WaiversComplete: { type: 'boolean', description: 'Every required question answered (per participant where it asks so).' },
    CheckedInAt: { type: ['string', 'null'], format: 'date-time' },
    CheckedInParticipants: { type: 'integer', minimum: 0, description: 'How many of the party are checked in (0 before the check-in).' },
    Note: { type: ['string', 'null'] },
    Price: operatorBookingPriceSchema,
  },
} as const;

export const manifestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Date', 'Timeslots', 'Totals'],
  properties: {
    Date: calendarDateSchema,
    Timeslots: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['TimeslotID', 'ActivityID', 'ActivityName', 'Date', 'Time', 'StartsAt', 'Capacity', 'Booked', 'Closed', 'Bookings', 'Totals'],
        properties: {
          TimeslotID: { type: 'integer' },
          ActivityID: uuidSchema,
          ActivityName: { type: 'string' },
          Date: calendarDateSchema,
          Time: clockTimeSchema,
          StartsAt: { type: 'string', format: 'date-time', description: "With the offset of the activity's zone." },
          Capacity: { type: 'integer' },
          Booked: { type: 'integer', description: 'Places taken by live bookings.' },
          Closed: { type: 'boolean' },
          Bookings: { type: 'array', items: manifestBookingSchema },
          Totals: totalsSchema,
        },
      },
    },
    Totals: totalsSchema,
  },
} as const;
export type Manifest = FromSchema<typeof manifestSchema>;

export const getOperatorManifestOperation = {
  operationId: 'getOperatorManifest',
  method: 'get',
  path: '/api/v2/operator/manifest',
  summary: "The day's manifest",
  description:
    "Every timeslot on Date (the activity's local date), by time then activity name, each with its live bookings (on hold and confirmed, " +
    'in the order they were made) and totals. Cancelled and expired bookings are left out.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  query: {
    type: 'object',
    additionalProperties: false,
    required: ['Date'],
    properties: { Date: calendarDateSchema, ActivityID: { ...uuidSchema, description: 'Only this activity.' } },
  },
  responses: {
    200: { description: 'The manifest (an unknown ActivityID has no timeslots).', schema: manifestSchema },
    422: { description: 'Date missing or not a calendar date; ActivityID not a UUID.' },
  },
} as const satisfies Operation;
export type ManifestQuery = FromSchema<typeof getOperatorManifestOperation.query>;
