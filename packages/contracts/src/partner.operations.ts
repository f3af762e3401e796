// The partner (OTA) API: seven operations whose schemas validate requests, type the handlers and feed the OpenAPI
// document. Member names are PascalCase as in the contract.
import type { FromSchema } from 'json-schema-to-ts';
import { calendarDateSchema, clockTimeSchema, uuidSchema } from './common.schemas.js';
import type { Operation } from './operation.js';

// Year 0000 passes the `date` format but not PostgreSQL; refusing it here keeps such a value a 422, never a 500.
const partnerDateSchema = {
  ...calendarDateSchema,
  pattern: '^(?!0000-)',
  'x-message': 'must be a calendar date in the form YYYY-MM-DD.',
} as const;

const partnerTimeSchema = { ...clockTimeSchema, 'x-message': 'must be a clock time in the form HH:MM (00:00 to 23:59).' } as const;

/**
 * Visible text without control characters or unpaired surrogates: PostgreSQL cannot store NUL nor a lone surrogate
 * in jsonb, and names with line breaks help nobody.
 */
function visibleText<const Max extends number>(maxLength: Max) {
  return {
    type: 'string',
    minLength: 1,
    maxLength,
    pattern: '^[^\\u0000-\\u001f\\u007f\\ud800-\\udfff]*[^\\s\\u0000-\\u001f\\u007f\\ud800-\\udfff][^\\u0000-\\u001f\\u007f\\ud800-\\udfff]*$',
    'x-message': 'must contain visible text and no control characters.',
  } as const;
}

const activityIdParams = {
  type: 'object',
  required: ['ActivityID'],
  properties: {
    ActivityID: { ...uuidSchema, description: 'UUID of the activity (canonical 8-4-4-4-12 hex form, any case).', 'x-message': 'must be a UUID in canonical 8-4-4-4-12 hex form.' },
  },
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Response schemas

export const productSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ID', 'ActivityID', 'Name', 'Description', 'DurationMinutes', 'TimeZone', 'Price', 'MaxParticipants'],
  properties: {
    ID: { type: 'integer', description: 'Numeric product ID, usable in resolve-product.' },
    ActivityID: { ...uuidSchema, description: 'UUID of the activity, used by availability, questions and booking.' },
    Name: { type: 'string' },
    Description: { type: 'string' },
    DurationMinutes: { type: 'integer', minimum: 1 },
    TimeZone: { type: 'string', description: 'IANA time zone in which the activity takes place; dates and times are local to it.' },
    Price: {
      type: 'object',
      additionalProperties: false,
      required: ['Amount', 'Currency'],
      description: 'Price per participant.',
      properties: {
        Amount: { type: 'integer', minimum: 0, description: 'Integer amount in the currency\'s minor units (cents).' },
        Currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code.' },
      },
    },
    MaxParticipants: { type: 'integer', minimum: 1, description: 'Most participants one booking may carry.' },
  },
} as const;
export type Product = FromSchema<typeof productSchema>;

export const availableDateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Date', 'Available', 'Timeslots'],
  properties: {
    Date: { ...calendarDateSchema, description: 'Local date in the activity\'s time zone.' },
    Available: { type: 'integer', minimum: 1, description: 'Free places summed over the bookable timeslots of the date.' },
    Timeslots: { type: 'integer', minimum: 1, description: 'Number of bookable timeslots on the date.' },
  },
} as const;
export type AvailableDate = FromSchema<typeof availableDateSchema>;

export const availableTimeslotSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Time', 'StartsAt', 'EndsAt', 'Capacity', 'Available'],
  properties: {
    Time: { ...clockTimeSchema, description: 'Local start time in the activity\'s time zone; send it back as Time when booking.' },
    StartsAt: { type: 'string', format: 'date-time', description: 'Start, ISO 8601 with the UTC offset in force in the activity\'s zone.', examples: ['2026-03-29T03:00:00+02:00'] },
    EndsAt: { type: 'string', format: 'date-time', description: 'End, ISO 8601 with the UTC offset in force in the activity\'s zone.' },
    Capacity: { type: 'integer', minimum: 0 },
    Available: { type: 'integer', minimum: 1, description: 'Free places.' },
  },
} as const;
export type AvailableTimeslot = FromSchema<typeof availableTimeslotSchema>;

export const QUESTION_TYPES = ['text', 'textarea', 'select', 'multiselect', 'checkbox', 'date', 'email', 'phone', 'number', 'file', 'signature'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const questionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ID', 'Question', 'Type', 'Required', 'Options', 'PerParticipant'],
  properties: {
    ID: { type: 'integer', description: 'Question ID, sent back as Answers[].QuestionID.' },
    Question: { type: 'string' },
    Type: { type: 'string', enum: QUESTION_TYPES },
    Required: { type: 'boolean' },
    Options: { type: 'array', items: { type: 'string' }, description: 'The choices of a select or multiselect question; empty otherwise.' },
    PerParticipant: { type: 'boolean', description: 'Asked once per participant: answers carry a Participant number.' },
  },
} as const;
export type Question = FromSchema<typeof questionSchema>;

export const BOOKING_CHANNELS = ['ota', 'online', 'pos'] as const;
export type BookingChannel = (typeof BOOKING_CHANNELS)[number];

const customerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['FirstName', 'LastName', 'Email'],
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
  description: 'Value of the question\'s type: string (text, textarea, select, date, email, phone, signature, file URL), array of strings (multiselect), boolean (checkbox), number (number).',
} as const;

const answerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['QuestionID', 'Value'],
  properties: {
    QuestionID: { type: 'integer', minimum: 1, maximum: 9007199254740991 },
    Participant: { type: 'integer', minimum: 1, maximum: 1000, description: 'For a per-participant question: which participant (1-based) this answer is for. Not allowed otherwise.' },
    Value: answerValueSchema,
  },
} as const;

export const bookingRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ActivityID', 'Date', 'Time', 'Participants', 'Customer'],
  properties: {
    ActivityID: { ...uuidSchema, 'x-message': 'must be a UUID in canonical 8-4-4-4-12 hex form.' },
    Date: { ...partnerDateSchema, description: 'Local date of the timeslot, in the activity\'s time zone.' },
    Time: { ...partnerTimeSchema, description: 'Local start time of the timeslot, as listed by the timeslots endpoint.' },
    Participants: { type: 'integer', minimum: 1, maximum: 1000, description: 'From 1 to the activity\'s MaxParticipants.' },
    Customer: customerSchema,
    PaymentReference: { ...visibleText(255), description: 'The partner\'s payment reference, stored and shown to the operator.' },
    Answers: { type: 'array', maxItems: 1000, items: answerSchema, description: 'Waiver answers; when sent, every required question must be answered.' },
  },
} as const;
export type BookingRequest = FromSchema<typeof bookingRequestSchema>;
export type BookingAnswer = FromSchema<typeof answerSchema>;

export const bookingSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Reference', 'Status', 'ActivityID', 'Date', 'Time', 'Participants', 'Customer', 'PaymentReference', 'Channel', 'CreatedAt'],
  properties: {
    Reference: { type: 'string', pattern: '^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$', description: 'Booking reference: 8 random characters without look-alikes (0/O, 1/I), readable over the phone.', examples: ['7KQ4-X9MB'] },
    Status: { type: 'string', enum: ['confirmed', 'cancelled'] },
    ActivityID: uuidSchema,
    Date: calendarDateSchema,
    Time: clockTimeSchema,
    Participants: { type: 'integer', minimum: 1 },
    Customer: {
      type: 'object',
      additionalProperties: false,
      required: ['FirstName', 'LastName', 'Email', 'Phone'],
      properties: {
        FirstName: { type: 'string' },
        LastName: { type: 'string' },
        Email: { type: 'string' },
        Phone: { type: ['string', 'null'] },
      },
    },
    PaymentReference: { type: ['string', 'null'] },
    Channel: { type: 'string', enum: BOOKING_CHANNELS },
    CreatedAt: { type: 'string', format: 'date-time', description: 'When the booking was made, ISO 8601 in UTC.' },
  },
} as const;
export type Booking = FromSchema<typeof bookingSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Operations

const tags = ['Partner'] as const;
const notFoundActivity = { description: 'No active activity with this ActivityID in the caller\'s account.' } as const;
const invalidActivityId = { description: 'ActivityID is not a UUID.' } as const;

export const listProductsOperation = {
  operationId: 'listProducts',
  method: 'get',
  path: '/api/v2/ota/partner/products',
  summary: 'List the activities offered in the operator\'s shopfront',
  description:
    'Active activities offered in the shopfront, ordered by Name (case-insensitive), then ID. Carries an ETag and `Cache-Control: private, max-age=60`; send the ETag back in If-None-Match to get 304 when nothing changed.',
  tags,
  scope: 'ota',
  query: {
    type: 'object',
    properties: {
      name: { ...visibleText(200), description: 'Only products whose Name contains this text (case-insensitive).' },
    },
  },
  responses: {
    200: {
      description: 'The products.',
      schema: { type: 'array', items: productSchema },
      headers: { ETag: { description: 'Strong validator of this list.' }, 'Cache-Control': { description: 'private, max-age=60' } },
    },
    304: { description: 'Not modified: the If-None-Match validator still matches.' },
    422: { description: 'Invalid name filter.' },
  },
} as const satisfies Operation;

// Decimal digits only: a lax integer coercion would turn "0x10" or " 1" into an ID.
const productIdQuerySchema = {
  type: 'string',
  pattern: '^[1-9][0-9]{0,14}$',
  description: 'Numeric product ID (a positive integer).',
  'x-message': 'must be a positive integer.',
} as const;

export const resolveProductOperation = {
  operationId: 'resolveProduct',
  method: 'get',
  path: '/api/v2/ota/partner/resolve-product',
  summary: 'Look up one product by ID or by Name',
  description: 'Send exactly one of ID or Name. Name matches exactly, ignoring case; when several products share it, the lowest ID wins.',
  tags,
  scope: 'ota',
  queryErrorStatus: 400,
  query: {
    type: 'object',
    properties: {
      ID: productIdQuerySchema,
      Name: { ...visibleText(200), description: 'Exact product name, case-insensitive.' },
    },
  },
  responses: {
    200: { description: 'The product.', schema: productSchema },
    400: { description: 'Neither or both of ID and Name, or an ID that is not a positive integer.' },
    404: { description: 'No such product.' },
  },
} as const satisfies Operation;

export const listAvailableDatesOperation = {
  operationId: 'listAvailableDates',
  method: 'get',
  path: '/api/v2/ota/partner/availability/:ActivityID/dates',
  summary: 'Dates with bookable capacity in a range',
  description:
    'Local dates (activity time zone) from StartDate to EndDate, both included, on which at least one timeslot is bookable (open, not started, places free). The range covers at most 366 dates.',
  tags,
  scope: 'ota',
  params: activityIdParams,
  query: {
    type: 'object',
    required: ['StartDate', 'EndDate'],
    properties: { StartDate: partnerDateSchema, EndDate: partnerDateSchema },
  },
  responses: {
    200: { description: 'Dates with capacity, in date order.', schema: { type: 'array', items: availableDateSchema } },
    400: invalidActivityId,
    404: notFoundActivity,
    422: { description: 'StartDate or EndDate missing or invalid, EndDate before StartDate, or more than 366 dates.' },
  },
} as const satisfies Operation;

export const listAvailableTimeslotsOperation = {
  operationId: 'listAvailableTimeslots',
  method: 'get',
  path: '/api/v2/ota/partner/availability/:ActivityID/timeslots',
  summary: 'Bookable timeslots on a date',
  description: 'Open, not yet started timeslots with free places that start on Date in the activity\'s time zone, ordered by time.',
  tags,
  scope: 'ota',
  params: activityIdParams,
  query: { type: 'object', required: ['Date'], properties: { Date: partnerDateSchema } },
  responses: {
    200: { description: 'The timeslots.', schema: { type: 'array', items: availableTimeslotSchema } },
    400: invalidActivityId,
    404: notFoundActivity,
    422: { description: 'Date missing or invalid.' },
  },
} as const satisfies Operation;

const questionsResponses = {
  200: { description: 'The waiver questions, in display order.', schema: { type: 'array', items: questionSchema } },
  400: invalidActivityId,
  404: notFoundActivity,
} as const;

export const listPartnerQuestionsOperation = {
  operationId: 'listPartnerQuestions',
  method: 'get',
  path: '/api/v2/ota/partner/questions/:ActivityID',
  summary: 'Waiver questions of an activity',
  description: 'Takes no query parameter. (The contract lists a 422 for a missing Date here; that line is a slip: there is no Date parameter, and no 422.)',
  tags,
  scope: 'ota',
  params: activityIdParams,
  responses: questionsResponses,
} as const satisfies Operation;

export const listCoreQuestionsOperation = {
  operationId: 'listCoreQuestions',
  method: 'get',
  path: '/api/v2/ota/core/questions/:ActivityID',
  summary: 'Waiver questions of an activity (core path)',
  description: 'The same answer as the partner path.',
  tags,
  scope: 'ota',
  params: activityIdParams,
  responses: questionsResponses,
} as const satisfies Operation;

export const createBookingOperation = {
  operationId: 'createBooking',
  method: 'post',
  path: '/api/v2/ota/partner/booking',
  summary: 'Book a timeslot',
  description:
    'Reserves the places and records the booking and its booking.created event in one transaction; capacity is never oversold. ' +
    'On 409 offer the customer another timeslot. Unknown members are refused (422).',
  tags,
  scope: 'ota',
  body: bookingRequestSchema,
  idempotent: true,
  responses: {
    201: { description: 'Booked.', schema: bookingSchema },
    409: { description: '`/timeslot-unavailable`: no such timeslot, closed or started; `/insufficient-capacity`: not enough free places (detail and `Available` say how many are left); `/idempotency-in-progress`.' },
    422: { description: 'Invalid body, an ActivityID that is not one of the caller\'s activities, too many participants, invalid answers, or an Idempotency-Key reused with another body.' },
  },
} as const satisfies Operation;

export const partnerOperations = [
  listProductsOperation,
  resolveProductOperation,
  listAvailableDatesOperation,
  listAvailableTimeslotsOperation,
  listPartnerQuestionsOperation,
  listCoreQuestionsOperation,
  createBookingOperation,
] as const;
