// Activities and their waiver questions, as the operator edits them: create and edit, hide from the shopfront
// (InShopfront false: partners stop seeing it, the point of sale still sells it), list and add questions, and
// generate timeslots from a weekly pattern as the admin CLI does. Edits are the owner's; staff read the questions,
// which a sale at the counter asks.
import type { FromSchema } from 'json-schema-to-ts';
import { calendarDateSchema, clockTimeSchema, uuidSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { questionSchema, QUESTION_TYPES } from '../partner/shared.schemas.js';
import { operatorActivitySchema } from './list-activities.js';
import { operatorTags } from './shared.schemas.js';

const text = (max: number) => ({ type: 'string', maxLength: max, pattern: '^[^\\u0000\\ud800-\\udfff]*$' }) as const;
const activityParams = { type: 'object', required: ['ActivityID'], properties: { ActivityID: uuidSchema } } as const;

const activityFields = {
  Name: { ...text(200), minLength: 1 },
  Description: text(10_000),
  DurationMinutes: { type: 'integer', minimum: 1, maximum: 10_080 },
  Price: {
    type: 'object',
    additionalProperties: false,
    required: ['Amount', 'Currency'],
    properties: {
      Amount: { type: 'integer', minimum: 0, maximum: 9007199254740991, description: 'Minor units (cents).' },
      Currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    },
  },
  MaxParticipants: { type: 'integer', minimum: 1, maximum: 1000 },
  InShopfront: { type: 'boolean', description: 'Offered to partners.' },
  Active: { type: 'boolean', description: 'Bookable at all.' },
} as const;

export const newActivitySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Name', 'DurationMinutes', 'TimeZone', 'Price', 'MaxParticipants'],
  properties: { ...activityFields, TimeZone: { type: 'string', minLength: 1, maxLength: 64, description: 'IANA time zone; fixed once created.' } },
} as const;
export type NewOperatorActivity = FromSchema<typeof newActivitySchema>;

export const activityChangesSchema = { type: 'object', additionalProperties: false, minProperties: 1, properties: activityFields } as const;
export type ActivityChanges = FromSchema<typeof activityChangesSchema>;

export const createActivityOperation = {
  operationId: 'createOperatorActivity',
  method: 'post',
  path: '/api/v2/operator/activities',
  summary: 'Create an activity',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  body: newActivitySchema,
  responses: { 201: { description: 'Created.', schema: operatorActivitySchema }, 422: { description: 'Invalid activity.' } },
} as const satisfies Operation;

export const editActivityOperation = {
  operationId: 'editOperatorActivity',
  method: 'patch',
  path: '/api/v2/operator/activities/:ActivityID',
  summary: 'Edit an activity, or hide it from the shopfront',
  description: "Only the members sent change. The time zone cannot change (the timeslots' local times are fixed in it).",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  params: activityParams,
  body: activityChangesSchema,
  responses: {
    200: { description: 'The activity as it is now.', schema: operatorActivitySchema },
    404: { description: 'No such activity in this account.' },
    422: { description: 'Invalid changes.' },
  },
} as const satisfies Operation;

export const listActivityQuestionsOperation = {
  operationId: 'listOperatorQuestions',
  method: 'get',
  path: '/api/v2/operator/activities/:ActivityID/questions',
  summary: "An activity's waiver questions",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  params: activityParams,
  responses: {
    200: { description: 'In display order.', schema: { type: 'array', items: questionSchema } },
    404: { description: 'No such activity in this account.' },
  },
} as const satisfies Operation;

export const newQuestionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Question', 'Type'],
  properties: {
    Question: { ...text(2000), minLength: 1 },
    Type: { type: 'string', enum: QUESTION_TYPES },
    Required: { type: 'boolean' },
    Options: { type: 'array', maxItems: 100, items: text(1000) },
    PerParticipant: { type: 'boolean' },
  },
} as const;
export type NewQuestion = FromSchema<typeof newQuestionSchema>;

export const addActivityQuestionOperation = {
  operationId: 'addOperatorQuestion',
  method: 'post',
  path: '/api/v2/operator/activities/:ActivityID/questions',
  summary: 'Add a waiver question (after the last one)',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  params: activityParams,
  body: newQuestionSchema,
  responses: {
    201: { description: 'Added.', schema: questionSchema },
    404: { description: 'No such activity in this account.' },
    422: { description: 'Invalid question.' },
  },
} as const satisfies Operation;

export const timeslotPatternSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['From', 'To', 'Days', 'Times', 'Capacity'],
  properties: {
    From: calendarDateSchema,
    To: calendarDateSchema,
    Days: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] } },
    Times: { type: 'array', minItems: 1, maxItems: 48, uniqueItems: true, items: clockTimeSchema },
    Capacity: { type: 'integer', minimum: 0, maximum: 100000 },
  },
} as const;
export type TimeslotPattern = FromSchema<typeof timeslotPatternSchema>;

export const generateTimeslotsOperation = {
  operationId: 'generateTimeslots',
  method: 'post',
  path: '/api/v2/operator/activities/:ActivityID/timeslots',
  summary: 'Generate timeslots from a weekly pattern',
  description: "In the activity's time zone. Existing timeslots are kept as they are; times that a daylight-saving jump removes are skipped and reported.",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  params: activityParams,
  body: timeslotPatternSchema,
  responses: {
    201: {
      description: 'What was created.',
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['Created', 'Existing', 'Skipped'],
        properties: {
          Created: { type: 'integer' },
          Existing: { type: 'integer' },
          Skipped: { type: 'array', items: { type: 'object', required: ['Date', 'Time'], properties: { Date: { type: 'string' }, Time: { type: 'string' } } } },
        },
      },
    },
    404: { description: 'No such activity in this account.' },
    422: { description: 'Invalid pattern.' },
  },
} as const satisfies Operation;
