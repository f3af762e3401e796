// POST /api/v2/operator/activities/:ActivityID/timeslots: generate timeslots from a weekly pattern, as the admin CLI
// does (owners).
import type { FromSchema } from 'json-schema-to-ts';
import { calendarDateSchema, clockTimeSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { activityParams } from './activities.schemas.js';
import { operatorTags } from './shared.schemas.js';

export const timeslotPatternSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['From', 'To', 'Days', 'Times'],
  properties: {
    From: calendarDateSchema,
    To: calendarDateSchema,
    Days: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] } },
    Times: { type: 'array', minItems: 1, maxItems: 48, uniqueItems: true, items: clockTimeSchema },
    Capacity: { type: 'integer', minimum: 0, maximum: 100000, description: "Places per timeslot; the activity's MaxParticipants when left out." },
    DryRun: { type: 'boolean', description: 'true: answer the timeslots it would make (Preview), and make none.' },
  },
} as const;
export type TimeslotPattern = FromSchema<typeof timeslotPatternSchema>;

const generatedSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Created', 'Existing', 'Skipped'],
  properties: {
    Created: { type: 'integer', description: 'With DryRun: 0.' },
    Preview: {
      type: 'array',
      description: 'With DryRun only: every timeslot of the pattern (those that exist already are kept as they are).',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['Date', 'Time', 'StartsAt', 'Capacity'],
        properties: {
          Date: { type: 'string' },
          Time: { type: 'string' },
          StartsAt: { type: 'string', format: 'date-time' },
          Capacity: { type: 'integer' },
          Exists: { type: 'boolean', description: 'The activity has this timeslot already: it would be kept as it is (a clash).' },
        },
      },
    },
    Existing: { type: 'integer', description: 'Timeslots of the pattern that exist already (kept as they are); with DryRun, those that would be.' },
    Skipped: { type: 'array', items: { type: 'object', required: ['Date', 'Time'], properties: { Date: { type: 'string' }, Time: { type: 'string' } } } },
  },
} as const;

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
    200: { description: 'DryRun: what it would make (Preview); nothing was made.', schema: generatedSchema },
    201: {
      description: 'What was created.',
      schema: generatedSchema,
    },
    404: { description: 'No such activity in this account.' },
    422: { description: 'Invalid pattern.' },
  },
} as const satisfies Operation;
