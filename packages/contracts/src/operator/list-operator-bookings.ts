// GET /api/v2/operator/bookings: the account's bookings of every channel, filtered and keyset-paged, newest first or
// by slot time.
import type { FromSchema } from 'json-schema-to-ts';
import { BOOKING_CHANNELS, BOOKING_STATUSES, bookingCustomerSchema, calendarDateSchema, clockTimeSchema, uuidSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { FILE_CONTENT_TYPES, QUESTION_TYPES } from '../partner/shared.schemas.js';
import { cursorSchema, limitSchema, nextSchema, operatorTags } from './shared.schemas.js';

/**
 * The channels the list filters by: a booking's channel, with a partner's bookings made through OCTO as a channel of
 * their own (the list shows them as OCTO): `ota` is then the partner API's own, `octo` the OCTO interface's.
 */
export const BOOKING_CHANNEL_FILTERS = [...BOOKING_CHANNELS, 'octo'] as const;
export type BookingChannelFilter = (typeof BOOKING_CHANNEL_FILTERS)[number];

/** The filters the list and the CSV export share. */
export const bookingFilterProperties = {
  From: { ...calendarDateSchema, description: 'Only bookings whose timeslot is on or after this local date.' },
  To: { ...calendarDateSchema, description: 'Only bookings whose timeslot is on or before this local date.' },
  Channel: {
    type: 'string',
    enum: BOOKING_CHANNEL_FILTERS,
    description: "ota: a partner's bookings made through the partner API; octo: those made through its OCTO interface (Octo true); online; pos.",
  },
  Status: { type: 'string', enum: BOOKING_STATUSES, description: 'A hold past its ExpiresAt counts as expired.' },
  ActivityID: uuidSchema,
  Test: {
    type: 'boolean',
    description: "true: the sandbox's test bookings (made with test keys) instead of the live ones, which are all the list shows otherwise.",
  },
  Q: {
    type: 'string',
    minLength: 1,
    maxLength: 200,
    pattern: '^[^\\u0000\\ud800-\\udfff]*$',
    description:
      "Free text, case- and accent-insensitive (Joao finds João, muller Müller), within the reference, the customer's e-mail or full name (FirstName LastName), or the payment reference.",
  },
} as const;

/** The price as sold: per participant, its currency, the total for the party; `migration` marks a price recorded later. */
export const operatorBookingPriceSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['UnitPriceMinor', 'Currency', 'TotalMinor', 'ListTotalMinor', 'Reason', 'Source'],
  properties: {
    UnitPriceMinor: { type: 'integer', description: 'Minor units per participant.' },
    Currency: { type: 'string', description: 'ISO 4217.' },
    TotalMinor: { type: 'integer', description: 'The total charged: the price set by hand when there is one, else ListTotalMinor.' },
    ListTotalMinor: { type: 'integer', description: 'UnitPriceMinor times Participants.' },
    Reason: { type: ['string', 'null'], description: 'Why the price was set by hand (TotalMinor differs from ListTotalMinor); null otherwise.' },
    Source: {
      type: 'string',
      enum: ['sale', 'migration'],
      description: "sale: recorded when the booking was made; migration: the activity's price when prices began to be recorded.",
    },
  },
} as const;

export const operatorBookingSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'Reference',
    'Status',
    'Channel',
    'ActivityID',
    'ActivityName',
    'Date',
    'Time',
    'StartsAt',
    'Participants',
    'Customer',
    'PaymentReference',
    'PartnerName',
    'Octo',
    'PaymentMethod',
    'CreatedAt',
    'Price',
    'Note',
    'CheckedInAt',
    'CheckedInParticipants',
    'CancellationReason',
  ],
  properties: {
    Reference: { type: 'string' },
    Status: { type: 'string', enum: BOOKING_STATUSES },
    Channel: { type: 'string', enum: BOOKING_CHANNELS },
    ActivityID: uuidSchema,
    ActivityName: { type: 'string' },
    Date: calendarDateSchema,
    Time: clockTimeSchema,
    StartsAt: { type: 'string', format: 'date-time', description: "With the offset of the activity's zone." },
    Participants: { type: 'integer' },
    Customer: bookingCustomerSchema,
    PaymentReference: { type: ['string', 'null'] },
    PartnerName: { type: ['string', 'null'], description: 'The partner that made an ota booking.' },
    PaymentMethod: {
      type: ['string', 'null'],
      enum: ['cash', 'card', 'other', null],
      description: 'How a point-of-sale sale was paid, when the desk said so; null otherwise.',
    },
    Octo: {
      type: 'boolean',
      description: "An ota booking made through the partner API's OCTO interface; its PaymentReference is the reseller's resellerReference.",
    },
    CreatedAt: { type: 'string', format: 'date-time' },
    Price: operatorBookingPriceSchema,
    Note: { type: ['string', 'null'], description: "The operator's note." },
    CheckedInAt: { type: ['string', 'null'], format: 'date-time', description: 'When the party was checked in; null until then.' },
    CheckedInParticipants: {
      type: 'integer',
      minimum: 0,
      description: 'How many of the party are checked in: 0 until the check-in, then all unless fewer arrived.',
    },
    CancellationReason: { type: ['string', 'null'], description: 'Why it was cancelled, when it was and a reason was given.' },
  },
} as const;
export type OperatorBooking = FromSchema<typeof operatorBookingSchema>;

export const bookingAnswerSchema = {
  type: 'object',
  required: ['QuestionID', 'Question', 'Type', 'Participant', 'Value'],
  properties: {
    QuestionID: { type: 'integer' },
    Question: { type: 'string', description: 'As worded when answered.' },
    Type: { type: 'string', enum: QUESTION_TYPES },
    Participant: { type: ['integer', 'null'] },
    Value: {
      type: ['string', 'number', 'boolean', 'array'],
      items: { type: 'string' },
      description: 'The answer; for a file answer, the FileID (File describes the file).',
    },
    File: {
      type: 'object',
      additionalProperties: false,
      required: ['FileID', 'Name', 'ContentType', 'Size'],
      description: 'A file answer only: the uploaded file, downloaded with GET /api/v2/operator/files/{FileID}.',
      properties: {
        FileID: uuidSchema,
        Name: { type: 'string' },
        ContentType: { type: 'string', enum: FILE_CONTENT_TYPES },
        Size: { type: 'integer', description: 'Bytes.' },
      },
    },
  },
} as const;

export const listOperatorBookingsOperation = {
  operationId: 'listOperatorBookings',
  method: 'get',
  path: '/api/v2/operator/bookings',
  summary: 'List the bookings of every channel',
  description:
    "Newest first, or with Sort=starts_at by the timeslot's start (then by booking). Keyset-paged: pass the answer's `Next` as `Cursor` " +
    '(with the same Sort: a cursor of the other order is refused with 422); bookings made meanwhile never shift later pages of the default order. ' +
    'Carries an ETag: send it back in If-None-Match to get 304 while the page is unchanged.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  query: {
    type: 'object',
    additionalProperties: false,
    properties: {
      ...bookingFilterProperties,
      Sort: {
        type: 'string',
        enum: ['starts_at'],
        description: "starts_at: by the timeslot's start, earliest first, then in the order they were booked. Leave out for newest booked first.",
      },
      Limit: limitSchema,
      Cursor: cursorSchema,
    },
  },
  responses: {
    200: {
      description: 'One page.',
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['Bookings', 'Next'],
        properties: { Bookings: { type: 'array', items: operatorBookingSchema }, Next: nextSchema },
      },
    },
    304: { description: 'Not modified: the If-None-Match validator still matches.' },
    422: { description: 'An invalid filter or cursor.' },
  },
} as const satisfies Operation;
export type BookingListQuery = FromSchema<typeof listOperatorBookingsOperation.query>;
export type BookingPage = FromSchema<(typeof listOperatorBookingsOperation.responses)[200]['schema']>;
