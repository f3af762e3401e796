// POST /api/v2/ota/partner/booking: the booking request (customer, waiver answers), the booking answered, the operation.
import type { FromSchema } from 'json-schema-to-ts';
import { BOOKING_CHANNELS, BOOKING_STATUSES, bookingCustomerSchema, calendarDateSchema, clockTimeSchema, uuidSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { partnerTags, partnerTimeSchema, visibleText } from './shared.schemas.js';

/** The customer's details; which of them are required depends on the request (a hold may send them at its confirm). */
export const customerDetailsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    FirstName: visibleText(100),
    LastName: visibleText(100),
    Email: { type: 'string', format: 'email', maxLength: 254, 'x-message': 'must be a valid email address.' },
    Phone: { type: 'string', minLength: 5, maxLength: 40, pattern: '^\\+?[0-9 ().\\-]+$', 'x-message': 'must be a phone number (digits, spaces, + ( ) . -).' },
  },
} as const;

const answerValueSchema = {
  type: ['string', 'number', 'boolean', 'array'],
  maxLength: 65536,
  pattern: '^[^\\u0000\\ud800-\\udfff]*$',
  maxItems: 100,
  items: { type: 'string', maxLength: 1000, pattern: '^[^\\u0000\\ud800-\\udfff]*$' },
  'x-message': 'must be a string, number, boolean or array of strings, without NUL characters or unpaired surrogates.',
  description:
    "Value of the question's type: string (text, textarea, select, date, email, phone, signature, the file's http(s) URL, or send FileID instead), array of strings (multiselect), boolean (checkbox), number (number).",
} as const;

export const answerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['QuestionID'],
  // Either a Value or, for a file question, the FileID of an upload: one of the two, never both.
  if: { not: { required: ['FileID'] } },
  then: { required: ['Value'] },
  not: { required: ['Value', 'FileID'] },
  'x-message': 'must be an object with QuestionID and either Value or FileID (not both).',
  properties: {
    QuestionID: { type: 'integer', minimum: 1, maximum: 9007199254740991 },
    Participant: {
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      description: 'For a per-participant question: which participant (1-based) this answer is for. Not allowed otherwise.',
    },
    Value: answerValueSchema,
    FileID: {
      ...uuidSchema,
      description:
        "For a file question, instead of Value: the FileID of a file the caller uploaded (a partner: POST /api/v2/ota/partner/files; the operator: the desk's, POST /api/v2/operator/files) or one this booking keeps already, that no other booking uses, of a type the question accepts. The booking keeps the file for as long as it exists.",
    },
  },
} as const;

const CUSTOMER_REQUIRED = ['FirstName', 'LastName', 'Email'] as const;

export const bookingRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ActivityID', 'Date', 'Time', 'Participants'],
  // A booking made at once needs the customer; a hold may leave any of it to its confirm.
  if: { not: { required: ['Hold'] } },
  then: { required: ['Customer'], properties: { Customer: { required: CUSTOMER_REQUIRED } } },
  properties: {
    ActivityID: { ...uuidSchema, 'x-message': 'must be a UUID in canonical 8-4-4-4-12 hex form.' },
    Date: { ...calendarDateSchema, description: "Local date of the timeslot, in the activity's time zone." },
    Time: { ...partnerTimeSchema, description: 'Local start time of the timeslot, as listed by the timeslots endpoint.' },
    Participants: { type: 'integer', minimum: 1, maximum: 1000, description: "From 1 to the activity's MaxParticipants." },
    Customer: { ...customerDetailsSchema, description: 'FirstName, LastName and Email are required, except on a hold, which may send them with its confirm.' },
    PaymentReference: { ...visibleText(255), description: "The partner's payment reference, stored and shown to the operator." },
    Answers: { type: 'array', maxItems: 1000, items: answerSchema, description: 'Waiver answers; when sent, every required question must be answered.' },
    Hold: {
      type: 'object',
      additionalProperties: false,
      required: ['Minutes'],
      properties: { Minutes: { type: 'integer', minimum: 1, maximum: 60 } },
      description:
        'Hold the places for this many minutes (1 to 60) instead of booking at once: the booking is on_hold until confirmed (POST .../booking/{Reference}/confirm) and expires at ExpiresAt.',
    },
  },
} as const;
export type BookingRequest = FromSchema<typeof bookingRequestSchema>;
export type BookingAnswer = FromSchema<typeof answerSchema>;

/** What a booking costs, as it was sold: later changes of the activity's price do not touch it. */
export const bookingPriceSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Currency', 'UnitAmount', 'TotalAmount', 'AtSale'],
  properties: {
    Currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency.' },
    UnitAmount: { type: 'integer', minimum: 0, description: 'Price per participant in minor units, as it was when the booking was made.' },
    TotalAmount: {
      type: 'integer',
      minimum: 0,
      description: "UnitAmount times Participants, in minor units; or the total set by hand at the operator's desk (a discount or an override).",
    },
    AtSale: {
      type: 'boolean',
      description: "False for a booking made before prices were recorded with bookings: its UnitAmount is the activity's price on the day they began to be.",
    },
  },
} as const;
export type BookingPrice = FromSchema<typeof bookingPriceSchema>;

export const bookingSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Reference', 'Status', 'ActivityID', 'Date', 'Time', 'Participants', 'Customer', 'PaymentReference', 'Channel', 'Price', 'CreatedAt'],
  properties: {
    Reference: {
      type: 'string',
      pattern: '^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$',
      description: 'Booking reference: 8 random characters without look-alikes (0/O, 1/I), readable over the phone.',
      examples: ['7KQ4-X9MB'],
    },
    Status: { type: 'string', enum: BOOKING_STATUSES },
    ActivityID: uuidSchema,
    Date: calendarDateSchema,
    Time: clockTimeSchema,
    Participants: { type: 'integer', minimum: 1 },
    Customer: bookingCustomerSchema,
    Test: { type: 'boolean', enum: [true], description: 'A sandbox booking, made with a test key (on test places); absent for live bookings.' },
    PaymentReference: { type: ['string', 'null'] },
    Channel: { type: 'string', enum: BOOKING_CHANNELS },
    Price: bookingPriceSchema,
    CreatedAt: { type: 'string', format: 'date-time', description: 'When the booking was made, ISO 8601 in UTC.' },
    ExpiresAt: { type: 'string', format: 'date-time', description: 'A hold only: when its places are released unless it is confirmed, ISO 8601 in UTC.' },
  },
} as const;
export type Booking = FromSchema<typeof bookingSchema>;

export const createBookingOperation = {
  operationId: 'createBooking',
  method: 'post',
  path: '/api/v2/ota/partner/booking',
  summary: 'Book a timeslot',
  description:
    'Reserves the places and records the booking and its booking.created event in one transaction; capacity is never oversold. ' +
    'On 409 offer the customer another timeslot. Unknown members are refused (422).',
  tags: partnerTags,
  scope: 'ota',
  body: bookingRequestSchema,
  idempotent: true,
  responses: {
    201: { description: 'Booked (Status confirmed), or held (Status on_hold, with ExpiresAt).', schema: bookingSchema },
    409: {
      description:
        '`/timeslot-unavailable`: no such timeslot, closed or started; `/insufficient-capacity`: not enough free places (detail and `Available` say how many are left); `/idempotency-in-progress`.',
    },
    422: {
      description:
        "Invalid body, an ActivityID that is not one of the caller's activities, too many participants, invalid answers, or an Idempotency-Key reused with another body.",
    },
  },
} as const satisfies Operation;
