// POST /api/v2/operator/activities/:ActivityID/timeslots/remove-empty: remove, in bulk, an activity's timeslots that no
// booking ever named (an over-eager generation undone); owners.
import type { FromSchema } from 'json-schema-to-ts';
import { calendarDateSchema, clockTimeSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { activityParams } from './activities.schemas.js';
import { operatorTags } from './shared.schemas.js';

export const emptyTimeslotsRangeSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['From', 'To'],
  properties: {
    From: calendarDateSchema,
    To: { ...calendarDateSchema, description: 'At most 366 days after From.' },
    Days: {
      type: 'array',
      uniqueItems: true,
      items: { type: 'string', enum: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] },
      description: 'Only these weekdays; left out or empty: every day.',
    },
    Times: { type: 'array', maxItems: 48, uniqueItems: true, items: clockTimeSchema, description: 'Only these times; left out or empty: every time.' },
    DryRun: { type: 'boolean', description: 'true: answer what would be removed, and remove nothing.' },
  },
} as const;
export type EmptyTimeslotsRange = FromSchema<typeof emptyTimeslotsRangeSchema>;

export const removeEmptyTimeslotsOperation = {
  operationId: 'removeEmptyTimeslots',
  method: 'post',
  path: '/api/v2/operator/activities/:ActivityID/timeslots/remove-empty',
  summary: 'Remove the timeslots without bookings in a range',
  description:
    "In the activity's time zone. A timeslot that any booking names (cancelled and expired ones included: their history points at it) is kept and counted in Kept. " +
    'Audited as timeslots.removed.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  params: activityParams,
  body: emptyTimeslotsRangeSchema,
  responses: {
    200: {
      description: 'What was removed (with DryRun: what would be), and how many timeslots of the range have bookings.',
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['Removed', 'Kept', 'Timeslots'],
        properties: {
          Removed: { type: 'integer', description: 'With DryRun: 0.' },
          Kept: { type: 'integer' },
          Timeslots: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['Date', 'Time'],
              properties: { Date: { type: 'string' }, Time: { type: 'string' } },
            },
          },
        },
      },
    },
    404: { description: 'No such activity in this account.' },
    422: { description: 'An invalid range (To before From, or more than 366 days).' },
  },
} as const satisfies Operation;
